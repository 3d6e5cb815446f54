#!/usr/bin/env bash
# The GPU recipe with every lab training photo, on a lent GPU machine (the workplace's device tool).
#
# A call to that machine takes at most 64 MiB: the tracked tree, the untracked files git does not ignore and the
# carried paths. `gpu pack --lab-per-class 0` (5,146 lab photos) with both ImageNet starts is 84 MiB, so it
# travels in parts, in calls made one right after the other (a machine stays warm 30 s after a call and keeps what
# the earlier calls brought), with only ml/ in the tree:
#
#   bash ml/gpu-call.sh pack            # gpu pack --lab-per-class 0, cut into .carry/gpu-1, .carry/gpu-2 (each fits)
#   bash ml/gpu-call.sh trim            # only ml/ travels: the rest out of git's index, and ignored, until restore
#   device run, carry [".carry/gpu-1"]:  bash ml/gpu-call.sh have .carry/gpu-1
#   device run, carry [".carry/gpu-2"]:  bash ml/gpu-call.sh train 7 resnet50_imagenet mobilenet_v2_imagenet
#   bash ml/gpu-call.sh restore         # the tree as it was (also after a failed call)
#   bash ml/gpu-call.sh fetch FILES_AT ml/runs/gpu-all   # the weights back here, joined and checked
#   bash ml/gpu-call.sh finish ml/runs/gpu-all ml/runs/stage   # every step to shippable files, beside models/
#   bash ml/gpu-call.sh compare models ml/runs/stage           # (finish ends with it) the cards side by side
#
# `train MIN ARCH...` (on the GPU machine) joins the parts, checks them, runs `gpu train --time-budget-min MIN` and
# cuts the weights into parts of at most 15 MiB under $OUT (a file may not come back over 16 MiB). If the second call
# finds a fresh machine, `train` says the first part is missing: run both calls again.
# `finish WEIGHTS STAGE` (here, about 40 minutes) makes from each network's weights what ships now: `gpu finish`,
# `graft lab-like`, then the lab expert of commit fdf1ff5 (`graft expert`) for the MobileNet, and `quantize` and
# `evaluate --record-cpu` for the ResNet50; the VGG16 of models/ joins them and `gpu ensemble-card` writes the
# ensemble's card. It ends with `compare`. Copy STAGE's files to models/ only if they win on validation, as
# ml/README.md says.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
CARRY="$ROOT/.carry"
PACK="$HERE/.pack"
LIMIT_MIB=64      # what one call takes
MARGIN_MIB=1      # kept free of that
PART_MIB=${GPU_CALL_PART_MIB:-8}
MARK_BEGIN="# >>> ml/gpu-call.sh trim"
MARK_END="# <<< ml/gpu-call.sh trim"

die() { echo "gpu-call: $*" >&2; exit 1; }
mib() { echo $(( ($1 + 1048575) / 1048576 )); }

# cut SRC_DIR DEST_PREFIX PART_MIB BUDGET_MIB: SRC_DIR as one tar, cut into parts of PART_MIB, the parts in order
# in folders DEST_PREFIX-1, -2, ... of at most BUDGET_MIB each; every folder gets the MANIFEST (the tar's sha256,
# size and number of parts)
cut_dir() {
  local src=$1 dest=$2 part=$3 budget=$4 tmp
  (( part <= budget )) || die "parts of $part MiB do not fit in $budget MiB"
  tmp=$(mktemp -d)
  tar -C "$src" -cf "$tmp/all.tar" .
  split -b "${part}M" -d -a 3 "$tmp/all.tar" "$tmp/part-"
  local n=0 folder=1 used=0 size
  rm -rf "$dest"-*
  mkdir -p "$dest-1"
  for p in "$tmp"/part-*; do
    size=$(stat -c %s "$p")
    if (( used + size > budget * 1048576 )); then folder=$((folder + 1)); used=0; mkdir -p "$dest-$folder"; fi
    mv "$p" "$dest-$folder/"
    used=$((used + size)); n=$((n + 1))
  done
  local line
  line="$(sha256sum "$tmp/all.tar" | cut -d' ' -f1) $(stat -c %s "$tmp/all.tar") $n"
  for d in "$dest"-*; do echo "$line" > "$d/MANIFEST"; done
  rm -rf "$tmp"
  echo "$src: $(mib "$(du -cb "$dest"-* | tail -1 | cut -f1)") MiB in $n parts, in $(ls -d "$dest"-* | tr '\n' ' ')"
}

# join DEST DIR...: the parts found in the DIRs (any order) joined, checked against the MANIFEST, unpacked into DEST
join_dirs() {
  local dest=$1; shift
  local manifest="" d
  for d in "$@"; do [[ -f "$d/MANIFEST" ]] && manifest="$d/MANIFEST"; done
  [[ -n "$manifest" ]] || die "no MANIFEST in $*"
  read -r sha size n < "$manifest"
  local tmp parts=()
  tmp=$(mktemp -d)
  for ((i = 0; i < n; i++)); do
    local name found=""
    name=$(printf 'part-%03d' "$i")
    for d in "$@"; do [[ -f "$d/$name" ]] && found="$d/$name"; done
    [[ -n "$found" ]] || { rm -rf "$tmp"; die "part $((i + 1)) of $n ($name) is missing from $*"; }
    parts+=("$found")
  done
  cat "${parts[@]}" > "$tmp/all.tar"
  [[ "$(stat -c %s "$tmp/all.tar")" == "$size" && "$(sha256sum "$tmp/all.tar" | cut -d' ' -f1)" == "$sha" ]] \
    || { rm -rf "$tmp"; die "the joined parts do not match the MANIFEST (sha256 $sha, $size bytes)"; }
  mkdir -p "$dest"
  tar -C "$dest" -xf "$tmp/all.tar"
  rm -rf "$tmp"
  echo "joined $n parts into $dest"
}

tree_bytes() {  # tree_bytes [PATH...]: what a call takes of the tree (tracked files, untracked ones git does not ignore)
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard -- "$@" | xargs -0 -r stat -c %s 2>/dev/null \
    | awk '{ s += $1 } END { print s + 0 }')
}

case "${1:-}" in
  pack)
    bash "$HERE/run.sh" gpu pack --lab-per-class 0 --out "$PACK"
    # the tree that travels with the parts is ml/ alone once trimmed (trim)
    cut_dir "$PACK" "$CARRY/gpu" "$PART_MIB" $((LIMIT_MIB - MARGIN_MIB - $(mib "$(tree_bytes ml)")))
    ;;
  trim)
    cd "$ROOT"
    git diff --cached --quiet || die "the index differs from HEAD: commit or unstage first"
    grep -qF "$MARK_BEGIN" .git/info/exclude 2>/dev/null && die "already trimmed: bash ml/gpu-call.sh restore"
    mapfile -t top < <(git ls-files | cut -d/ -f1 | sort -u | grep -vx ml)
    git rm -r -q --cached -- "${top[@]}"
    mkdir -p .git/info
    { echo "$MARK_BEGIN"; printf '/%s\n' "${top[@]}"; echo "$MARK_END"; } >> .git/info/exclude
    echo "what a call takes of the tree now: $(mib "$(tree_bytes)") MiB (restore with: bash ml/gpu-call.sh restore)"
    ;;
  restore)
    cd "$ROOT"
    git reset -q  # trim refused a staged change, so the index was HEAD's
    if [[ -f .git/info/exclude ]]; then
      awk -v b="$MARK_BEGIN" -v e="$MARK_END" '$0 == b { s = 1; next } $0 == e { s = 0; next } !s' \
        .git/info/exclude > .git/info/exclude.tmp && mv .git/info/exclude.tmp .git/info/exclude
    fi
    echo "the tree is back: $(git status --short | wc -l) changed or untracked path(s)"
    ;;
  have)  # on the GPU machine: the parts this call brought are there
    shift
    for d in "$@"; do [[ -f "$d/MANIFEST" ]] || die "$d has no MANIFEST"; du -sh "$d"; done
    ;;
  train)  # on the GPU machine, from the repository root: bash ml/gpu-call.sh train MIN ARCH...
    shift
    minutes=${1:?minutes}; shift
    (( $# )) || die "train MIN ARCH...: name the networks"
    out=${OUT:?OUT: the output folder of a device call}
    rm -rf /tmp/gpu-pack /tmp/gpu-weights
    join_dirs /tmp/gpu-pack "$CARRY"/gpu-*
    cd "$HERE"
    set -o pipefail
    OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 PYTHONPATH=. "${PYTHON:-python3}" -m diagrodl_ml.cli gpu train --pack /tmp/gpu-pack \
      --out /tmp/gpu-weights --arch "$@" --time-budget-min "$minutes" 2>&1 | tee "$out/train.log"
    cut_dir /tmp/gpu-weights "$out/weights" 15 60
    ;;
  fetch)  # here: bash ml/gpu-call.sh fetch FILES_AT DEST
    join_dirs "${3:?fetch FILES_AT DEST}" "${2:?}"/weights-*
    ;;
  finish)  # here: bash ml/gpu-call.sh finish WEIGHTS STAGE
    weights=$(realpath "${2:?finish WEIGHTS STAGE}"); stage=$(realpath -m "${3:?finish WEIGHTS STAGE}")
    [[ "$stage" != "$ROOT/models" ]] || die "STAGE must not be models/: compare first, then copy"
    step() {  # step DIR COMMAND...: one step into STAGE/DIR; a step that writes nothing passes its input on
      local dir=$1 in=$2; shift 2
      mkdir -p "$stage/$dir"
      echo "+ ($dir) bash ml/run.sh $*"
      bash "$HERE/run.sh" "$@"
      if [[ ! -f "$stage/$dir/$(basename "$in")" ]]; then
        echo "($dir wrote nothing: $(basename "$in") goes on as it was)"
        cp "$in" "$stage/$dir/"; cp "${in%.onnx}.card.json" "$stage/$dir/"
      fi
    }
    expert="$stage/expert/mobilenet-v3-small-lab.onnx"
    mkdir -p "$stage/expert"
    git -C "$ROOT" show fdf1ff5:models/mobilenet.onnx > "$expert"
    git -C "$ROOT" show fdf1ff5:models/mobilenet.card.json > "${expert%.onnx}.card.json"
    for net in mobilenet resnet50; do
      arch=$([[ $net == mobilenet ]] && echo mobilenet_v2_imagenet || echo resnet50_imagenet)
      [[ -f "$weights/$arch.npz" ]] || { echo "no $arch.npz in $weights: $net.onnx is not made"; continue; }
      step 1-finish "$stage/1-finish/$net.onnx" gpu finish --arch "$arch" --weights "$weights/$arch.npz" \
        --models-dir "$stage/1-finish"
      step 2-lab-like "$stage/1-finish/$net.onnx" graft lab-like --model "$stage/1-finish/$net.onnx" \
        --out "$stage/2-lab-like/$net.onnx"
      if [[ $net == mobilenet ]]; then
        step 3-last "$stage/2-lab-like/$net.onnx" graft expert --model "$stage/2-lab-like/$net.onnx" \
          --expert "$expert" --out "$stage/3-last/$net.onnx"
      else
        step 3-last "$stage/2-lab-like/$net.onnx" quantize --model "$stage/2-lab-like/$net.onnx" \
          --out "$stage/3-last/$net.onnx"
        echo "+ bash ml/run.sh evaluate --model $stage/3-last/$net.onnx --record-cpu"
        bash "$HERE/run.sh" evaluate --model "$stage/3-last/$net.onnx" --record-cpu  # int8: this kind of CPU's figures
      fi
      cp "$stage/3-last/$net.onnx" "$stage/3-last/$net.card.json" "$stage/"
    done
    for f in "$ROOT"/models/vgg16.onnx "$ROOT"/models/vgg16.card.json "$ROOT"/models/LICENSE-*; do
      [[ -f "$stage/$(basename "$f")" ]] || cp "$f" "$stage/"
    done
    for net in mobilenet resnet50; do  # a network not made here stays the shipped one
      [[ -f "$stage/$net.onnx" ]] || cp "$ROOT/models/$net.onnx" "$ROOT/models/$net.card.json" "$stage/"
    done
    echo "+ bash ml/run.sh gpu ensemble-card --models-dir $stage"
    bash "$HERE/run.sh" gpu ensemble-card --models-dir "$stage" --runs "$ROOT/ml/runs/gpu" "$weights"
    bash "$0" compare "$ROOT/models" "$stage"
    ;;
  compare)  # bash ml/gpu-call.sh compare DIR...: the cards' test, validation and held-out figures, side by side
    shift
    /usr/bin/python3 - "$@" <<'PY'
import json, sys
from pathlib import Path
def figures(card):
    m = card["metrics"]
    ev = card.get("field_evaluation") or card["out_of_distribution"]["evaluation"]
    num = lambda v: "-" if v is None else f"{v:.4f}"
    f = lambda k: "/".join(num(ev[k].get(x)) for x in ("top1", "accepted_share", "accuracy_accepted")) if k in ev else "-"
    return [num(m.get("accuracy")), num(m.get("min_recall")), f("field_val_all"), f("field_val"), f("field2_val"),
            f("field_holdout"), num(ev.get("other_crop_holdout", {}).get("refused_share"))]
print("file | folder | lab test top-1 | lowest class recall | field validation top-1/given/right: both sources, first,"
      " second | field held out | other crops held out refused")
for name in ("mobilenet", "resnet50", "vgg16", "ensemble"):
    for where in sys.argv[1:]:
        p = Path(where) / f"{name}.card.json"
        if p.exists():
            print(" | ".join([name, where, *figures(json.loads(p.read_text()))]))
PY
    ;;
  cut) cut_dir "${2:?cut SRC DEST_PREFIX PART_MIB BUDGET_MIB}" "${3:?}" "${4:?}" "${5:?}" ;;
  join) shift; join_dirs "${1:?join DEST DIR...}" "${@:2}" ;;
  *) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2 ;;
esac
