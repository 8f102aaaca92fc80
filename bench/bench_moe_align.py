#!/usr/bin/env python3
"""FlagTree's MoE align-block-size TLE kernel (moe_align_block_size_tle_cluster_fused: one
8-block thread-block cluster, shared-memory histograms, DSMEM atomics into block 0, cluster
barriers) compiled by tlec from the upstream tutorial unmodified, checked against the
invariants the tutorial checks, and timed. The tutorial's other providers use TLE as well
(Triton 3.6 cannot run them), so there is no Triton baseline here.

The upstream file is not part of this repository: put FlagTree's
python/tutorials/tle/02-moe_align_block_size.py (commit 050839fd78a0) at
build-ref/flagtree/02-moe_align_block_size.py, run `bench/gen_sweep.sh bench/moe_align.list
build-gpu/moe build sm_90a build-ref/flagtree` where tlec is, and this script on the GPU
machine. Usage: bench/bench_moe_align.py [--build build-gpu/moe] [--check-only]"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))
sys.path.insert(0, HERE)

NUM_TOKENS, NUM_EXPERTS, BLOCK_SIZE = 8192, 64, 16  # the tutorial's defaults (bench/moe_align.list)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join("build-gpu", "moe"))
    parser.add_argument("--check-only", action="store_true", help="only the correctness checks (for compute-sanitizer)")
    args = parser.parse_args()
    from sweep_common import build
    build(args.build)
    import torch
    import triton
    import tlec_kernels
    from bench_tutorials import bench
    kernel = tlec_kernels.load(args.build)["moe_tle_cluster_e64"]
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}")
    numel = NUM_TOKENS
    padded = numel + NUM_EXPERTS * (BLOCK_SIZE - 1)
    assert padded == 9152 and triton.cdiv(padded, BLOCK_SIZE) == 572, "bench/moe_align.list's constexprs"

    def outputs():
        return (torch.full((padded,), -7, dtype=torch.int32, device="cuda"),
                torch.full((triton.cdiv(padded, BLOCK_SIZE),), -7, dtype=torch.int32, device="cuda"),
                torch.full((1,), -7, dtype=torch.int32, device="cuda"))

    def run_tlec(topk_ids, sorted_ids, expert_ids, post):
        kernel((8,), topk_ids, sorted_ids, expert_ids, post, numel)  # one cluster of 8 blocks

    def check(topk_ids, sorted_ids, expert_ids, post):
        """The tutorial's invariants, written out: padded total, expert of every block, the
        tokens of each expert's segment, sentinels after the valid length."""
        counts = torch.bincount(topk_ids.long(), minlength=NUM_EXPERTS)
        aligned = (counts + BLOCK_SIZE - 1) // BLOCK_SIZE * BLOCK_SIZE
        ends = torch.cumsum(aligned, 0)
        if int(post[0]) != int(ends[-1]):
            return f"num_tokens_post_pad {int(post[0])}, expected {int(ends[-1])}"
        blocks = int(ends[-1]) // BLOCK_SIZE
        want_experts = torch.repeat_interleave(torch.arange(NUM_EXPERTS, device="cuda"), aligned // BLOCK_SIZE)
        if not torch.equal(expert_ids[:blocks].long(), want_experts):
            return "expert_ids differ"
        start = 0
        for e in range(NUM_EXPERTS):
            segment = sorted_ids[start:int(ends[e])].long()
            tokens = segment[segment < numel]
            want = torch.nonzero(topk_ids.long() == e).flatten()
            if not torch.equal(tokens.sort().values, want):
                return f"expert {e}: its segment holds {tokens.numel()} tokens, expected {want.numel()}"
            if (segment[segment >= numel] != numel).any():
                return f"expert {e}: padding is not the sentinel {numel}"
            start = int(ends[e])
        if (sorted_ids[int(ends[-1]):] != numel).any():
            return "sorted ids after the valid length are not the sentinel"
        return None

    failures = 0
    for seed in range(4):
        torch.manual_seed(seed)
        # Uniform, then skewed (half the tokens on expert 3), then a single expert.
        if seed < 2:
            topk_ids = torch.randint(0, NUM_EXPERTS, (numel,), dtype=torch.int32, device="cuda")
        elif seed == 2:
            topk_ids = torch.where(torch.rand(numel, device="cuda") < 0.5, 3,
                                   torch.randint(0, NUM_EXPERTS, (numel,), device="cuda")).int()
        else:
            topk_ids = torch.full((numel,), 17, dtype=torch.int32, device="cuda")
        out = outputs()
        run_tlec(topk_ids, *out)
        torch.cuda.synchronize()
        problem = check(topk_ids, *out)
        failures += problem is not None
        print(f"{'FAIL' if problem else 'ok  '} tlec moe_align_block_size_tle_cluster_fused, input {seed}" +
              (f": {problem}" if problem else ""), flush=True)
    if failures:
        sys.exit(f"{failures} checks failed")
    if args.check_only:
        return

    # FlagTree's "triton" providers of this tutorial use TLE too (stage 4 keeps its counts in
    # tle.alloc shared memory), so Triton 3.6 cannot run them: tlec's time is reported alone.
    torch.manual_seed(0)
    topk_ids = torch.randint(0, NUM_EXPERTS, (numel,), dtype=torch.int32, device="cuda")
    out = outputs()
    rows = [("tlec: TLE cluster kernel (1 cluster of 8 blocks)", bench(lambda: run_tlec(topk_ids, *out)))]
    t_tlec = rows[0][1]
    print(f"\n{NUM_TOKENS} token slots, {NUM_EXPERTS} experts, block size {BLOCK_SIZE}:")
    for name, t in rows:
        print(f"  {name:52s} {t * 1e3:8.2f} us   {t / t_tlec:5.2f}x tlec's time")


if __name__ == "__main__":
    main()
