#!/usr/bin/env python3
"""Sets one SM's issue order in GPGPU-Sim beside warpsim's (MECHANISMS.md item 44).

    scripts/tls-trace-compare.py GPGPUSIM_LOG WARPSIM_ISSUES.csv [--kernel N] [--sm S]
                                 [--bucket CYCLES] [--active N]

GPGPUSIM_LOG: the output of a run of GPGPU-Sim patched with correlation/gpgpusim/tls-trace.patch
(WARPSIM_GS_TRACE_CORE=S); WARPSIM_ISSUES.csv: `warpsim run --issue-trace` of the same program,
best on GPGPU-Sim's own PTX (its `*.sm_35.ptx`, through a manifest's `ptx =`), so that both
execute the same instructions. --kernel: which launch, counting from 0 (default 1: the one after
a setup kernel). Prints, for SM S:
  1. issues per bucket of cycles in each simulator;
  2. per pair of consecutive instructions of a warp (PC a -> PC b): the minimum and median
     cycles between their issues in each, flagging pairs whose minimum differs (a latency) or
     whose median differs by more than a quarter (a scheduling difference);
  3. GPGPU-Sim's average count of supervised warps per state per scheduler (X finished or
     empty, B waiting, E no I-buffer head, L long-operation input, R other), over all warps and
     over the active set.
PCs: GPGPU-Sim's are byte addresses of 8-byte PTX instructions, renumbered here from the
kernel's first issued PC; warpsim's are instruction indices.
"""
import argparse
import collections
import csv
import statistics


def gpgpusim(path, kernel, sm):
    """(issues, states) of launch `kernel` on core `sm`: issues as (cycle, scheduler, slot, pc,
    warp), states as {scheduler: [(cycle, [(slot, state)])]}."""
    issues, states = [], collections.defaultdict(list)
    launch = 0
    for line in open(path, errors='replace'):
        # GPGPU-Sim prints a kernel's statistics, "kernel_name = …" first, when it ends.
        if line.startswith('kernel_name = '):
            launch += 1
        if launch != kernel or not line.startswith('@@'):
            continue
        f = line.split()
        if int(f[2]) != sm:
            continue
        if f[0] == '@@I':
            issues.append((int(f[1]), int(f[3]), int(f[4]), int(f[6]), int(f[5])))
        elif f[0] == '@@S':
            states[int(f[3])].append((int(f[1]), [(int(w[:-1]), w[-1]) for w in f[4:]]))
    if issues:
        base = min(i[3] for i in issues)
        issues = [(c, k, s, (pc - base) // 8, w) for c, k, s, pc, w in issues]
    return issues, states


def warpsim(path, kernel, sm):
    return [(int(r['cycle']), int(r['scheduler']), int(r['slot']), int(r['pc']), int(r['warp']))
            for r in csv.DictReader(open(path))
            if int(r['launch']) == kernel and int(r['sm']) == sm]


def gaps(issues):
    """{(pc a, pc b): [cycles]} over consecutive issues of each warp."""
    last, out = {}, collections.defaultdict(list)
    for c, _, _, pc, w in issues:
        if w in last:
            out[(last[w][1], pc)].append(c - last[w][0])
        last[w] = (c, pc)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('gpgpusim_log')
    ap.add_argument('warpsim_issues')
    ap.add_argument('--kernel', type=int, default=1)
    ap.add_argument('--sm', type=int, default=0)
    ap.add_argument('--bucket', type=int, default=500)
    ap.add_argument('--active', type=int, default=6, help="two_level_active:N's N")
    a = ap.parse_args()
    gs, states = gpgpusim(a.gpgpusim_log, a.kernel, a.sm)
    ws = warpsim(a.warpsim_issues, a.kernel, a.sm)
    if not gs or not ws:
        raise SystemExit(f'no issues of launch {a.kernel} on SM {a.sm}: GPGPU-Sim {len(gs)}, '
                         f'warpsim {len(ws)}')
    print(f'SM {a.sm}, launch {a.kernel}: GPGPU-Sim {len(gs)} issues, last at {gs[-1][0]}; '
          f'warpsim {len(ws)} issues, last at {ws[-1][0]}')

    print(f'\n1. issues per {a.bucket} cycles (GPGPU-Sim / warpsim)')
    hg = collections.Counter(c // a.bucket for c, *_ in gs)
    hw = collections.Counter(c // a.bucket for c, *_ in ws)
    for b in range(max(max(hg), max(hw)) + 1):
        print(f'  {b * a.bucket:>7} {hg[b]:>6} {hw[b]:>6}')

    print('\n2. cycles between consecutive instructions of a warp: min, median (GPGPU-Sim / warpsim)')
    gg, gw = gaps(gs), gaps(ws)
    for pair in sorted(set(gg) & set(gw)):
        x, y = sorted(gg[pair]), sorted(gw[pair])
        mx, my = statistics.median(x), statistics.median(y)
        flag = ''
        if x[0] != y[0]:
            flag = '  latency'
        elif abs(mx - my) > 0.25 * max(mx, my, 4):
            flag = '  scheduling'
        print(f'  {pair[0]:>4} -> {pair[1]:<4} {x[0]:>5} {mx:>7.1f} / {y[0]:>5} {my:>7.1f}'
              f'   ({len(x)} / {len(y)}){flag}')
    only = sorted(set(gg) ^ set(gw))
    if only:
        print(f'  pairs in one simulator only (the programs differ?): {only[:8]}')

    print(f'\n3. GPGPU-Sim: supervised warps per state, average over cycles (all / the first '
          f'{a.active}, the active set)')
    for sched, rows in sorted(states.items()):
        total, active = collections.Counter(), collections.Counter()
        for _, warps in rows:
            for i, (_, st) in enumerate(warps):
                total[st] += 1
                active[st] += i < a.active
        n = len(rows)
        print(f'  scheduler {sched}: ' +
              ', '.join(f'{k} {total[k] / n:.2f} / {active[k] / n:.2f}' for k in sorted(total)))

if __name__ == '__main__':
    main()
