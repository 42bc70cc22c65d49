#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab: which knobs libata takes on ata_piix (DMA) and AHCI, as hdparm and sysfs see it.
source "$(dirname "$0")/lib.bash"

run_lab --script "$LAB_DIR/guest/settings-matrix.sh"
source "$LAB_DIR/matrix_checks.bash"
column -t -s $'\t' "$OUT/matrix.tsv"

common_matrix_checks
check "sda: hdparm -c0 and -c1 work on ata_piix" same c "$(rc_of sda io_support 0)$(rc_of sda io_support 1)" 00
check "sdb: hdparm -c0 refused with EINVAL on AHCI" same c0 "$(rc_of sdb io_support 0)" 22
check "sdb: hdparm -c1 (the current value) accepted on AHCI" same c1 "$(rc_of sdb io_support 1)" 0
finish
