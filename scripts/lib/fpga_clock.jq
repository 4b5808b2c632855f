# fpga_clock: the clock a configuration runs at, from scripts/fpga.sh's fpga.json. The whole
# design's place and route when it ran (fmax_source "design"); otherwise the slowest block
# placed and routed alone ("slowest block: <name>"), an upper bound, as the design runs no
# faster than any of its blocks; null (source "") when nothing was placed. unmeasured: the
# blocks without an Fmax (failed, timed out, or too large to place alone).
# Used by scripts/sweep (fpga.csv, time_us) and scripts/bench.sh (time per layer):
#   jq -L scripts/lib 'include "fpga_clock"; fpga_clock' fpga.json
def fpga_clock:
  (.blocks | map(select(.top)) | .[0]) as $d
  | (.blocks | map(select((.top | not) and .pnr.status == "ok")) | sort_by(.pnr.fmax_mhz)) as $placed
  | {fmax_mhz: (if $d.pnr.status == "ok" then $d.pnr.fmax_mhz else ($placed[0].pnr.fmax_mhz // null) end),
     fmax_source: (if $d.pnr.status == "ok" then "design"
                   elif ($placed | length) > 0 then "slowest block: \($placed[0].block)" else "" end),
     unmeasured: ([.blocks[] | select((.top | not) and .pnr.status != "ok") | .block] | unique | join(" "))};
