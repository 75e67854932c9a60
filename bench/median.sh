# Sourced by bench/pocl.sh and bench/cpu-target.sh. One program run is
# noisy on a small VM (another tenant takes a core for a while), so each
# program runs $RUNS times (default 11), interleaved with the programs it
# is compared with, and the scripts report the median of the runs.

runs=${RUNS:-11}

# The median of the numbers on standard input.
median() {
  sort -g | awk '{ v[NR] = $1 }
    END { if (NR == 0) print "nan";
          else if (NR % 2) print v[(NR + 1) / 2];
          else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The smallest of the numbers on standard input.
minimum() { sort -g | head -1; }

# median_field NAME FIELD FILE: the median of field FIELD of FILE's lines
# whose first field is NAME; min_field: their minimum.
median_field() { awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$3" | median; }
min_field() { awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$3" | minimum; }

# same_field NAME FIELD FILE: FIELD of NAME's lines when every run printed
# the same, else "varies" and the values.
same_field() {
  awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$3" | sort -u |
    awk '{ v[NR] = $1 } END { if (NR == 1) print v[1];
          else { s = "varies:"; for (i = 1; i <= NR; ++i) s = s " " v[i]; print s } }'
}

# run_gpumem DIR NAMES...: runs each compiled bench/cpu program DIR/NAME
# with 1 and 2 workers, appending "NAME seconds checksum" to
# DIR/gpumem1.txt and DIR/gpumem2.txt.
run_gpumem() {
  local dir=$1 name workers
  shift
  for name in "$@"; do
    for workers in 1 2; do
      GPUMEM_CPU_THREADS=$workers "$dir/$name" | paste -sd' ' |
        sed "s/^/$name /" >> "$dir/gpumem$workers.txt"
    done
  done
}
