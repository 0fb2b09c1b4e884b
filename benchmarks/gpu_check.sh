#!/usr/bin/env bash
# The GPU checks, as one run on a machine with a CUDA device and PyTorch:
# bleukit.torch's and bleukit.torchmetrics' tests with tensors on the GPU
# (tests/test_torch.py, tests/test_torchmetrics.py), then the token-id
# benchmark (benchmarks/torch_batch.py) against the TensorBLEU-style
# baseline, the C engine and NLTK. Results go to $OUT (default: gpu-out/).
#
#   bash benchmarks/gpu_check.sh
#
# A machine without pip access can bring the missing packages (pydantic and
# its parts, nltk) as wheels in .whl/; they are installed into /tmp/site.
# The compiled engine must be built for that machine's Python
# (python setup.py build_ext --inplace, here or elsewhere): BLEUKIT_ENGINE=c
# makes its absence an error rather than a slower run.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 BLEUKIT_ENGINE=c BLEUKIT_REQUIRE_TORCH=1
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl
    export PYTHONPATH=$PWD:/tmp/site
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import sys, torch, bleukit.engines as e
print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.cuda.is_available())
print(e.describe())'
# the benchmark runs even when a test fails; the exit status is the tests'
tests=0
python3 -m pytest -q -p no:cacheprovider -rs tests/test_torch.py tests/test_torchmetrics.py \
    2>&1 | tee "$out/tests.txt" || tests=$?
python3 benchmarks/torch_batch.py --device cuda --batches "${BATCHES:-64,256,512}" \
    --lengths "${LENGTHS:-256,512,1024}" --json "$out/torch_batch.json" 2>&1 \
    | tee "$out/torch_batch.txt"
exit "$tests"
