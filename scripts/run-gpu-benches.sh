#!/usr/bin/env bash
# Runs the GPU-machine benchmarks in one go and writes the CSVs into OUTDIR. Source
# scripts/gpu-env.sh first. Usage, from the repository root:
#   scripts/run-gpu-benches.sh OUTDIR [build dir] [bench ...]   (default: all of them)
# info      vkt-bench info (device, cpu threading as measured, BLAS)
# consumer  the seed's seven ops, 1024 .. 64M; torch: the PyTorch peer, same cases
# host      the host table: vktensor's cpu backend, NumPy and PyTorch CPU, seed ops and
#           add, exp, sum, argmax, transpose, dot at 1M and 16M
# blas      dot and add on the cpu under each OpenBLAS threading variant
# tests     the unit suite, and the whole Vulkan suite with validation and poisoning on, as
#           parallel shards (run-gpu-suite.sh), each stopped at 8 minutes
# memory    issue 9's memory-bound ops op-only (wall clock and device time), 1024, 1M, 64M
# sortwin   sort, argsort, top_k and the window ops at 1M and 16M;
#           one flat line (sort_flat, argsort_flat: the radix sort; top_k_flat, k = 100) under
#           the device's rules; torch: the same sorts and top_k (torch_bench.py, torch-sort)
# conv      vkt-bench conv (ResNet 3x3 layer 32x64x56x56, pad 1; f32 and f16, columns A..E,
#           device time; the forward conv and both backward convs) and its PyTorch peer
#           (cuDNN, TF32 off, same inputs); f32 again with Winograd's algorithms off
#           (--set conv_winograd=0), the direct kernel the rule chooses against
# coopmat   f16 matmul on cooperative matrices under each coopmat_tile override (2048, 4096,
#           8192; the tile rule's measurement) and PyTorch's f16 matmul beside it; conv f16
#           and f32 through im2col + the GEMM (--set conv_gemm=1), the implicit GEMM's f16
#           for comparison (conv_gemm=0), and cuDNN's conv
# coopmatpeak the tensor cores' rate through cooperative matrices (vkt-coopmat-peak: NV ones,
#           and KHR ones of f16 and bf16 by the library's rewrite; registers only, and
#           fragments loaded from shared memory each step, f32 and f16 accumulators, 128 and
#           256 invocations), a GEMM on workgroup-scope matrices
#           (VK_NV_cooperative_matrix2, at 4096 and 8192), the dot's f16 schedule taken apart
#           (--ladder, KHR matrices, at 4096 and 8192) beside the f16 and bf16 matmul's
#           default at 4096 and 8192, f16 on NV matrices (coopmat_api=nv) and PyTorch's
# convpasses conv through im2col + the GEMM (--set conv_gemm=1, f16 and f32) with each
#           pass's device time (C_gpu_im2col_us, C_gpu_gemm_us) and the GEMM alone as a dot
#           (--gemm-alone)
# convcpu   the cpu's conv (columns A, B; f32 and f64) under each work split
#           (--override cpu_conv_split=tiles|images), at all threads and at 2 (the 2-core rule),
#           a deep layer (512 channels, 7x7, batch 1 and 32) under each split, and PyTorch
#           CPU's conv beside the ResNet layer (16 and 2 threads)
# fft       vkt-bench fft (one line of 4K, 64K, 1M, 16M c64 and c128 points, and 4096 lines
#           of 4096; columns A..E, device time) and its PyTorch peer (cuFFT and torch cpu,
#           same inputs, same columns): the issue's goal is 16M c64 within 3x cuFFT; and
#           the cpu's long lines with --override cpu_fft_four_step=off (the four-step's gain), and
#           a sweep of lengths, every one four-step, against off (where the crossover
#           lies; the rule is 3 n point bytes > the host's L2), torch cpu beside it
# compile   vkt::compile (issue 12): chain16, softmax, layernorm and mlp compiled against eager
#           (1M, 16M); first calls with no disk cache (VKT_CACHE_DIR=off: trace, plan,
#           shaderc and pipeline columns); the cpu's eager and compiled paths at 1, 4 and all
#           threads; PyTorch eager and torch.compile (bench/peers/torch_chain.py)
# apigaps   window_scatter_max/min (native on Vulkan for f32), reduce and window_reduce with
#           a C++ function (the Scalar form, by host fallback) and all_close, at 64K and 1M
# linalg    triangular_solve (native) and the LAPACK decompositions (fallback), square
#           matrices of 64, 256 and 1024 rows (sizes 4096, 65536, 1048576)
# python    the Python module built here (scripts/gpu-python.sh; pack-gpu-python.sh packs its
#           kit): its tests (PyTorch's DLPack interop included), the per-call cost against
#           the C++ call, NumPy and PyTorch (python_overhead.py), and the seed ops at 1M and
#           16M driven from Python beside vkt-bench consumer's D in the same call
# train     one training step (issue 35): an MLP 784-1024-1024-10 (batch 256) and a ResNet
#           basic block (64 channels, 56x56, batch 32), eager and compiled, with the device's
#           peak memory, then PyTorch eager and torch.compile on the same steps (torch_train.py);
#           each side's device time per op or kernel in a step (train-profile, torch-train-profile);
#           the ResNet block again with Winograd's convs off (train-direct: conv_winograd=0)
# ops, shapes, matmul, chain, overhead  as vkt-bench names them
set -euo pipefail
out=${1:?usage: run-gpu-benches.sh OUTDIR [build dir] [bench ...]}
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
benches=${*:-info consumer torch host memory sortwin overhead chain matmul conv fft shapes ops}
bench="$build/vkt-bench"
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
sizes=1024,262144,1048576,16777216,67108864
host_ops=concatenate,pad,put_slice,indexed_put,broadcast,gather,take,add,exp,tanh,sum,argmax,argmax_all,transpose,dot
host_sizes=1048576,16777216
if ! "$bench" info | grep -qE "device .*(H100|H200)"; then
  echo "run-gpu-benches: vkt-bench info names no H100 or H200; not a run to trust" >&2
fi
have_torch() { python3 -c 'import torch' 2>/dev/null; }
# An idle H200 runs at 345 MHz and a small op then costs markedly more than when warm. The
# clock governor also lowers the clock a few seconds into a mostly idle process:
# vkt-bench (and the peers) now warm up every GPU column for 500 ms (bench/stats.h). The
# throw-away process below still brings the clock up before the first bench; it runs the
# memory rows' ops at 64M; VKT_BENCH_WARMUP=matmul gives the old one (4096 matmuls), =none
# skips it.
case ${VKT_BENCH_WARMUP:-memory} in
  matmul) "$bench" matmul --sizes 4096 --dtypes f32 --reps 400 --cpu-max 0 --out "$out/.warm-up.csv" > /dev/null 2>&1 || true ;;
  none) ;;
  *) "$bench" ops --ops concatenate,pad,gather,take,transpose,add,exp,sum,argmax,clip --sizes 67108864 --reps 5 \
       --out "$out/.warm-up.csv" > /dev/null 2>&1 || true ;;
esac
rm -f "$out/.warm-up.csv"
for b in $benches; do
  case $b in
    info) "$bench" info | tee "$out/${host}_info_${day}.txt" | head -40 ;;
    consumer) "$bench" consumer --sizes $sizes --out "$out/${host}_consumer_${day}.csv" ;;
    torch)
      if have_torch; then
        python3 bench/peers/torch_bench.py --sizes $sizes --out "$out/${host}_torch-consumer_${day}.csv"
      else
        echo "run-gpu-benches: no PyTorch here; peer skipped" >&2
      fi ;;
    host)
      "$bench" consumer --cpu-only --ops $host_ops --sizes $host_sizes --out "$out/${host}_host-vktensor_${day}.csv"
      python3 bench/peers/numpy_bench.py --ops $host_ops --sizes $host_sizes --out "$out/${host}_host-numpy_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_bench.py --cpu-only --ops $host_ops --sizes $host_sizes \
          --out "$out/${host}_host-torch_${day}.csv"
      fi ;;
    blas)
      g=/opt/gl/usr/lib/x86_64-linux-gnu
      for v in pthread openmp; do
        LD_LIBRARY_PATH=$g/openblas-$v:$LD_LIBRARY_PATH "$bench" info | grep blas
        LD_LIBRARY_PATH=$g/openblas-$v:$LD_LIBRARY_PATH "$bench" consumer --cpu-only --ops dot,add \
          --sizes 1048576,16777216 --reps 10 --out "$out/${host}_blas-${v}_${day}.csv"
      done ;;
    tests)
      t=$(dirname "$bench")/tests
      VKT_GOLDEN_DIR=$PWD/tests/golden/data "$t/vkt_unit_tests" > "$out/${host}_unit-tests_${day}.log" 2>&1 || true
      VKT_SUITE_LIMIT_S=480 bash scripts/run-gpu-suite.sh "$out/${host}_vulkan-suite_${day}" \
        "$(dirname "$bench")" || true
      tail -n 3 "$out/${host}_unit-tests_${day}.log" ;;
    memory)
      "$bench" ops --ops concatenate,concatenate_inner,pad,put_slice,indexed_put,broadcast,gather,gather_resident,take,transpose,add,exp,sum,argmax,argmax_all,clip \
        --sizes 1024,1048576,67108864 --reps 20 --out "$out/${host}_ops-memory_${day}.csv" ;;
    sortwin)
      # Issue 38's peer first: the same shapes, data and consumer read (rows of {4096, 4096}
      # at 16M and one line; top_k with k = 4 per row and k = 100 over a line), both as
      # consumer columns (C, C_gpu, D) so the two CSVs compare row for row; device columns
      # only (the cpu columns of 16M sorts took the rest of a 10-minute call).
      "$bench" consumer --device-only --ops sort,argsort,top_k,sort_flat,argsort_flat,top_k_flat \
        --sizes 1048576,16777216 --reps 10 --out "$out/${host}_consumer-sort_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_bench.py --device-only \
          --ops sort,argsort,top_k,sort_flat,argsort_flat,top_k_flat \
          --sizes 1048576,16777216 --reps 10 --out "$out/${host}_torch-sort_${day}.csv"
      else
        echo "run-gpu-benches: no PyTorch here; sort peer skipped" >&2
      fi
      "$bench" ops --ops sort,argsort,top_k,window_sum,window_max --sizes 1048576,16777216 --reps 10 \
        --out "$out/${host}_ops-sort-window_${day}.csv"
      "$bench" ops --ops sort_flat,argsort_flat,top_k_flat --sizes 1048576,16777216 --reps 10 \
        --out "$out/${host}_ops-sort-flat_${day}.csv" ;;
    conv)
      passes=forward,input_cotangent,kernel_cotangent
      "$bench" conv --passes $passes --out "$out/${host}_conv_${day}.csv"
      "$bench" conv --passes $passes --dtypes f32 --device-only --set conv_winograd=0 \
        --out "$out/${host}_conv-direct_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_conv.py --passes $passes --out "$out/${host}_torch-conv_${day}.csv"
      else
        echo "run-gpu-benches: no PyTorch here; conv peer skipped" >&2
      fi ;;
    convcpu)
      for split in tiles images; do
        "$bench" --override cpu_conv_split=$split conv --cpu-only --dtypes f32,f64 --reps 10 \
          --out "$out/${host}_conv-cpu-${split}_${day}.csv"
        OMP_NUM_THREADS=2 "$bench" --override cpu_conv_split=$split conv --cpu-only --dtypes f32 --reps 5 \
          --out "$out/${host}_conv-cpu-$split-threads2_${day}.csv"
        "$bench" --override cpu_conv_split=$split conv --cpu-only --dtypes f32 --batches 1,32 --channels 512 \
          --hw 7 --reps 10 --out "$out/${host}_conv-cpu-deep-${split}_${day}.csv"
      done
      if have_torch; then
        python3 bench/peers/torch_conv.py --dtypes f32,f64 --reps 10 --out "$out/${host}_torch-conv-cpu_${day}.csv"
        OMP_NUM_THREADS=2 python3 bench/peers/torch_conv.py --dtypes f32 --reps 5 \
          --out "$out/${host}_torch-conv-cpu-threads2_${day}.csv"
      else
        echo "run-gpu-benches: no PyTorch here; cpu conv peer skipped" >&2
      fi ;;
    coopmat)
      v="auto:coopmat=1"
      for t in 128x128x32:64x32 128x128x32:32x64 128x128x32:64x64:1 128x256x32:64x64 \
               256x128x32:64x64 128x128x64:64x64 64x64x32:32x32; do
        v="$v;t${t//:/-}:coopmat=1,coopmat_tile=$t"
      done
      "$bench" matmul --sizes 2048,4096,8192 --dtypes f16 --cpu-max 0 --reps 10 --variants "$v" \
        --out "$out/${host}_matmul-coopmat-tiles_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_matmul.py --sizes 2048,4096,8192 --dtypes f16 \
          --out "$out/${host}_torch-matmul-f16_${day}.csv"
      fi
      "$bench" conv --device-only --dtypes f16,f32 --set conv_gemm=1 \
        --out "$out/${host}_conv-gemm_${day}.csv"
      "$bench" conv --device-only --dtypes f16 --set conv_gemm=0 \
        --out "$out/${host}_conv-f16-plain_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_conv.py --no-cpu --out "$out/${host}_torch-conv_${day}.csv"
      fi ;;
    coopmatpeak)
      for t in 128 256; do
        for api in nv khr; do
          "$build/vkt-coopmat-peak" --threads $t --api $api "$build"/coopmat_peak_f32.spv \
            "$build"/coopmat_peak_f16.spv
        done
        "$build/vkt-coopmat-peak" --threads $t --api khr-bf16 "$build"/coopmat_peak_f32.spv
      done > "$out/${host}_coopmat-peak_${day}.csv"
      for n in 4096 8192; do
        timeout 120 "$build/vkt-coopmat-peak" --gemm $n
      done > "$out/${host}_coopmat2-gemm_${day}.csv" 2>&1
      for n in 4096 8192; do
        "$build/vkt-coopmat-peak" --api khr --repeats 10 --ladder $n "$build"/gemm_ladder.spv
      done > "$out/${host}_gemm-ladder_${day}.csv" 2>&1
      "$bench" matmul --sizes 4096,8192 --dtypes f16,bf16 --cpu-max 0 --reps 10 \
        --out "$out/${host}_matmul-f16_${day}.csv"
      "$bench" matmul --sizes 4096,8192 --dtypes f16 --cpu-max 0 --reps 10 --variants 'nv:coopmat_api=nv' \
        --out "$out/${host}_matmul-f16-nv_${day}.csv" || true  # where the device has NV ones
      if have_torch; then
        python3 bench/peers/torch_matmul.py --sizes 4096,8192 --dtypes f16,bf16 \
          --out "$out/${host}_torch-matmul-f16_${day}.csv"
      fi ;;
    convpasses)
      "$bench" conv --device-only --dtypes f16,f32 --gemm-alone --set conv_gemm=1 \
        --out "$out/${host}_conv-passes_${day}.csv" ;;
    fft)
      "$bench" fft --dtypes c64,c128 --out "$out/${host}_fft_${day}.csv"
      "$bench" fft --batch 4096 --sizes 4096 --out "$out/${host}_fft-batch_${day}.csv"
      # The cpu's long single lines without the four-step split (one thread per line).
      "$bench" --override cpu_fft_four_step=off fft --cpu-only --dtypes c64,c128 --sizes 1048576,16777216 \
        --out "$out/${host}_fft-cpu-no-four-step_${day}.csv"
      # The crossover: every line four-step, then none, 16K to 4M points.
      sweep=16384,32768,65536,131072,262144,524288,1048576,4194304
      "$bench" --override cpu_fft_four_step=65536 fft --cpu-only --dtypes c64,c128 --sizes $sweep \
        --out "$out/${host}_fft-cpu-four-step-sweep_${day}.csv"
      "$bench" --override cpu_fft_four_step=off fft --cpu-only --dtypes c64,c128 --sizes $sweep \
        --out "$out/${host}_fft-cpu-direct-sweep_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_fft.py --dtypes c64,c128 --out "$out/${host}_torch-fft_${day}.csv"
        python3 bench/peers/torch_fft.py --batch 4096 --sizes 4096 \
          --out "$out/${host}_torch-fft-batch_${day}.csv"
      else
        echo "run-gpu-benches: no PyTorch here; fft peer skipped" >&2
      fi ;;
    compile)
      work=chain16,softmax,layernorm,mlp
      "$bench" chain --ops $work --sizes 1048576,16777216 --reps 20 --out "$out/${host}_chain-compiled_${day}.csv"
      VKT_CACHE_DIR=off "$bench" chain --ops chain1,$work --sizes 16384,1048576,16777216 --reps 5 \
        --out "$out/${host}_chain-firstcall_${day}.csv"
      for t in 1 4 "$(nproc)"; do
        OMP_NUM_THREADS=$t "$bench" chain --cpu-only --ops $work --sizes 1048576,16777216 --reps 5 \
          --out "$out/${host}_chain-cpu-threads${t}_${day}.csv"
      done
      if have_torch; then
        python3 bench/peers/torch_chain.py --sizes 1048576,16777216 --reps 10 \
          --out "$out/${host}_torch-chain_${day}.csv"
      fi ;;
    train)
      "$bench" train --reps 20 --out "$out/${host}_train_${day}.csv" \
        --profile-out "$out/${host}_train-profile_${day}.csv"
      "$bench" --override conv_winograd=0 train --cases resnet_block --reps 20 \
        --out "$out/${host}_train-direct_${day}.csv"
      if have_torch; then
        python3 bench/peers/torch_train.py --reps 20 --out "$out/${host}_torch-train_${day}.csv" \
          --profile-out "$out/${host}_torch-train-profile_${day}.csv"
      fi ;;
    apigaps)
      "$bench" ops --ops window_scatter_max,window_scatter_min,reduce,window_reduce,all_close \
        --sizes 65536,1048576 --reps 10 --out "$out/${host}_ops-apigaps_${day}.csv" ;;
    linalg)
      "$bench" ops --ops triangular_solve,solve,cholesky,qr,lu,eigh,svd,determinant \
        --sizes 4096,65536,1048576 --reps 10 --out "$out/${host}_ops-linalg_${day}.csv" ;;
    ops|shapes|matmul|chain|overhead) "$bench" "$b" --out "$out/${host}_${b}_${day}.csv" ;;
    coverage) "$bench" coverage --out "$out/coverage-${host}.md" > /dev/null ;;
    python)
      pypath=$(bash scripts/gpu-python.sh)
      # The tests first, bounded: a failure is logged and the benches still run.
      PYTHONPATH=$pypath timeout 300 python3 -m pytest -q -p no:cacheprovider python/tests \
        > "$out/python-tests.log" 2>&1 || echo "run-gpu-benches: python tests failed (python-tests.log)" >&2
      PYTHONPATH=$pypath python3 bench/peers/python_overhead.py --out "$out/${host}_python-overhead_${day}.csv"
      "$bench" consumer --sizes 1048576,16777216 --out "$out/${host}_python-cpp-consumer_${day}.csv"
      PYTHONPATH=$pypath python3 bench/peers/vktensor_python_bench.py --sizes 1048576,16777216 \
        --cpp "$out/${host}_python-cpp-consumer_${day}.csv" --out "$out/${host}_python-consumer_${day}.csv" ;;
    *) echo "run-gpu-benches: unknown bench '$b'" >&2; exit 2 ;;
  esac
done
