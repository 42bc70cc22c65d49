#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance: identify --from the seed's hdparm -i text gives the walkthrough's values.
source "$(dirname "$0")/lib.bash"

out="$WORK/id.json"
"$DISKTUNE" identify --from "$TEST_DATA/identify/seed_ibm-djna-352500.hdparm-i.txt" --json >"$out"
check() { expect_eq "$(jq -c "$1" "$out")" "$2" "$1"; }
check .model '"IBM-DJNA-352500"'
check .firmware '"J51OA30K"'
check .max_multsect 16
check .multsect 16
check .pio_modes '[0,1,2,3,4]'
check .mdma_modes '[0,1,2]'
check .udma_modes '[0,1,2,3,4]'
check .udma_active 2
check .lba_sectors 49981680
check .dma_supported true
check .source '"hdparm-i"'
echo ok
