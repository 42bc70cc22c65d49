# SPDX-License-Identifier: GPL-2.0-or-later
# Guest script (PIO guest): hdparm -t of /dev/sda under -c0 and -c1, interleaved, five each (runs next
# to each other share the host load);
# io_support is put back as found. Output: timings.tsv ("io_support MB/s" per hdparm -t run).
timing_dev=/dev/sda
timing_io=$(hdparm -c $timing_dev | awk '/IO_support/ { print $3 }')
hdparm -t $timing_dev >/dev/null # warm up (TCG translates the PIO paths on first use)
for c in 0 1 0 1 0 1 0 1 0 1; do
  hdparm -c$c $timing_dev >/dev/null
  echo "$c $(hdparm -t $timing_dev | awk '/Timing/ { print $(NF - 1) }')" >>timings.tsv
done
hdparm -c"$timing_io" $timing_dev >/dev/null
