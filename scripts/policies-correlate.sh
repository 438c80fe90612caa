#!/usr/bin/env bash
# Policy effects in both simulators (correlation/README.md, "Policies in GPGPU-Sim"): runs each
# comparison of correlation/policies/pairs.csv (paper, program, policy, baseline) on GPGPU-Sim
# patched with correlation/gpgpusim/policies.patch and on warpsim (the launch manifest
# correlation/policies/NAME.toml, its committed PTX), and writes
# correlation/reference/policies.csv: per program x preset x policy x baseline the speedup
# (baseline cycles / policy cycles over the measured launches, setup_* left out; IPC ratio
# where the two runs execute different thread instruction counts, column `metric`) in each.
#
#   scripts/policies-correlate.sh --sides warpsim                 warpsim only: GPGPU-Sim's
#        columns are kept from the committed CSV (no GPGPU-Sim, no nvcc); rewrites the CSV
#   scripts/policies-correlate.sh --sides both --gpgpusim WORKDIR [--jobs 2] [--presets gtx480,titanx-pascal]
#        WORKDIR: built by ../shared/tools/gpgpusim-build.sh and patched by
#        scripts/gpgpusim-policies.sh WORKDIR/gpgpu-sim; programs are compiled with WORKDIR/nvcc11
#   --out DIR      run folders (default target/policies); GPGPU-Sim runs whose program source
#                  and config are unchanged are reused (--fresh re-runs them: do after
#                  rebuilding GPGPU-Sim with a changed patch)
#   --warpsim BIN  default target/release/warpsim (built with cargo build --release -p warpsim)
#   --programs A,B only these programs' comparisons run; the other rows keep their committed values
#   --set K=V,K2=V2  warpsim runs with these config overrides (`-c K=V`: a model option such as
#                  icnt.internal_speedup=2.0); the CSV goes to OUT/policies.csv, not the reference
#
# warpsim runs cff with its default eligibility (`policy.cff.eligibility = "empty"`: the BAWS
# paper's §2.2 rule and GPGPU-Sim's, which the patch keeps for cff) and fef with the partial
# rule (the patch's fef fetches into partly full buffers too).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 - "$repo" "$@" <<'PY'
import csv, json, os, subprocess, sys, hashlib, shutil, time
from concurrent.futures import ThreadPoolExecutor

repo = sys.argv[1]
args = sys.argv[2:]
opt = {'sides': 'warpsim', 'gpgpusim': None, 'jobs': '1', 'presets': None,
       'out': os.path.join(repo, 'target/policies'), 'warpsim': os.path.join(repo, 'target/release/warpsim'),
       'fresh': False, 'programs': None, 'set': None}
i = 0
while i < len(args):
    a = args[i]
    if a == '--fresh':
        opt['fresh'] = True; i += 1; continue
    if a in ('-h', '--help'):
        print(open(os.path.join(repo, 'scripts/policies-correlate.sh')).read().split('set -euo')[0]); sys.exit(0)
    if not a.startswith('--') or i + 1 >= len(args) or a[2:] not in opt:
        sys.exit(f'policies-correlate.sh: bad argument {a} (see --help)')
    opt[a[2:]] = args[i + 1]; i += 2
# The runs work in correlation/policies: paths given relative to here must not move with them.
for k in ('out', 'warpsim', 'gpgpusim'):
    if opt[k]:
        opt[k] = os.path.abspath(opt[k])
sides = {'warpsim': ['warpsim'], 'gpgpusim': ['gpgpusim'], 'both': ['warpsim', 'gpgpusim']}[opt['sides']]
ref_path = os.path.join(repo, 'correlation/reference/policies.csv')
pol_dir = os.path.join(repo, 'correlation/policies')
pairs = list(csv.DictReader(open(os.path.join(pol_dir, 'pairs.csv'))))
old = {}
if os.path.exists(ref_path):
    for r in csv.DictReader(open(ref_path)):
        old[(r['program'], r['preset'], r['policy'], r['baseline'])] = r
presets = opt['presets'].split(',') if opt['presets'] else (
    sorted({k[1] for k in old}) if 'gpgpusim' not in sides and old else ['gtx480'])
GS_CFG = {'gtx480': 'SM2_GTX480', 'titanx-pascal': 'SM6_TITANX'}

def warpsim_run(prog, preset, policy):
    """(cycles, thread insts) of the measured launches of a manifest replay."""
    out = os.path.join(opt['out'], 'warpsim', preset, policy)
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, prog + '.json')
    cmd = [opt['warpsim'], 'run', '--config', f'../configs/{preset}.toml', '--policy', policy,
           '--stats', stats, prog + '.toml']
    for kv in (opt['set'].split(',') if opt['set'] else []):
        cmd[2:2] = ['-c', kv]
    r = subprocess.run(cmd, cwd=pol_dir, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f'warpsim failed: {" ".join(cmd)}\n{r.stdout}{r.stderr}')
    v = json.load(open(stats))
    cyc = ins = 0
    for k in v['kernels']:
        if not k['kernel'].startswith('setup_'):
            cyc += k['timing']['cycles']; ins += k['thread_instructions']
    return cyc, ins

def gs_names(policy):
    issue, _, fetch = policy.partition('+')
    # Our `tls` is GPGPU-Sim's own two-level scheduler (6 active warps, LRR inside, the pending
    # FIFO outside): compared with GPGPU-Sim's, not a port of ours.
    if issue == 'tls':
        return 'two_level_active:6:0:1', fetch or 'rr'
    return issue.replace('-', '_'), fetch or 'rr'

def gpgpusim_run(prog, preset, policy):
    work = opt['gpgpusim']
    d = os.path.join(opt['out'], 'gpgpusim', preset, policy, prog)
    binary = os.path.join(opt['out'], 'bin11', prog)
    cfg_src = os.path.join(work, 'gpgpu-sim/configs/tested-cfgs', GS_CFG[preset])
    sched, fetch = gs_names(policy)
    lines = [l for l in open(os.path.join(cfg_src, 'gpgpusim.config')).read().splitlines()
             if not l.startswith(('-gpuwattch_xml_file', '-accelwattch_xml_file', '-power_simulation_enabled',
                                  '-gpgpu_scheduler', '-gpgpu_fetch_policy'))]
    lines += ['-power_simulation_enabled 0', f'-gpgpu_scheduler {sched}', f'-gpgpu_fetch_policy {fetch}']
    config = '\n'.join(lines) + '\n'
    # The program's source and the config (not the simulator: after rebuilding GPGPU-Sim with
    # a changed patch, run with --fresh).
    stamp = hashlib.sha256((open(os.path.join(pol_dir, prog + '.cu')).read() + config).encode()).hexdigest()
    log = os.path.join(d, 'gpgpusim.log')
    if not (not opt['fresh'] and os.path.exists(log) and open(os.path.join(d, 'stamp')).read() == stamp
            and open(os.path.join(d, 'rc')).read() == '0'):
        run = os.path.join(d, 'run')
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(run)
        for f in os.listdir(cfg_src):
            shutil.copy(os.path.join(cfg_src, f), run)
        open(os.path.join(run, 'gpgpusim.config'), 'w').write(config)
        t0 = time.time()
        r = subprocess.run(['bash', '-c', f'set +u; source {work}/env.sh; exec timeout 1800 {binary} >{log} 2>&1'], cwd=run)
        open(os.path.join(d, 'wall'), 'w').write(f'{time.time() - t0:.1f}\n')
        open(os.path.join(d, 'rc'), 'w').write(str(r.returncode))
        open(os.path.join(d, 'stamp'), 'w').write(stamp)
        shutil.rmtree(run)
    text = open(log, errors='replace').read()
    if open(os.path.join(d, 'rc')).read() != '0' or f'PASS {prog}' not in text:
        raise SystemExit(f'GPGPU-Sim run failed or did not pass: {log}')
    # Per kernel: "kernel_name = K" ... "gpu_sim_cycle = N", "gpu_sim_insn = N".
    cyc = ins = 0; name = None
    for line in text.splitlines():
        if line.startswith('kernel_name = '):
            name = line.split('=', 1)[1].strip()
        elif line.startswith('gpu_sim_cycle = ') and name and not name.startswith('setup_'):
            cyc += int(line.split('=')[1])
        elif line.startswith('gpu_sim_insn = ') and name and not name.startswith('setup_'):
            ins += int(line.split('=')[1])
    return cyc, ins

only = set(opt['programs'].split(',')) if opt['programs'] else {p['program'] for p in pairs}
unknown = only - {p['program'] for p in pairs}
if unknown:
    sys.exit(f'policies-correlate.sh: --programs: not in pairs.csv: {", ".join(sorted(unknown))}')
def on(p, pre):
    return not p.get('presets') or pre in p['presets'].split(';')
jobs = sorted({(p['program'], pre, pol) for p in pairs if p['program'] in only
               for pre in presets if on(p, pre) for pol in (p['policy'], p['baseline'])})
res = {'warpsim': {}, 'gpgpusim': {}}
if 'gpgpusim' in sides:
    if not opt['gpgpusim']:
        sys.exit('--gpgpusim WORKDIR is needed for the GPGPU-Sim side')
    os.makedirs(os.path.join(opt['out'], 'bin11'), exist_ok=True)
    for prog in sorted(only):
        subprocess.run([os.path.join(opt['gpgpusim'], 'nvcc11'), '-O3', '-cudart', 'shared', '-cudadevrt', 'none',
                        '-Wno-deprecated-gpu-targets', '-gencode', 'arch=compute_35,code=compute_35',
                        '-o', os.path.join(opt['out'], 'bin11', prog), prog + '.cu'], cwd=pol_dir, check=True)
    def one(j):
        r = gpgpusim_run(*j)
        print(f'GPGPU-Sim {j[0]} {j[1]} {j[2]}: {r[0]} cycles', flush=True)
        return j, r
    with ThreadPoolExecutor(int(opt['jobs'])) as ex:
        for j, r in ex.map(one, jobs):
            res['gpgpusim'][j] = r
if 'warpsim' in sides:
    for j in jobs:
        res['warpsim'][j] = warpsim_run(*j)

def speedup(pol, base):
    (pc, pi), (bc, bi) = pol, base
    if pi == bi:
        return bc / pc, 'cycles'
    return (pi / pc) / (bi / bc), 'ipc'

cols = ['program', 'preset', 'policy', 'baseline', 'gpgpusim_speedup', 'warpsim_speedup', 'paper', 'metric',
        'gpgpusim_policy_cycles', 'gpgpusim_baseline_cycles', 'warpsim_policy_cycles', 'warpsim_baseline_cycles']
rows = []
# Rows for the presets run and for those the committed CSV holds (a run on one preset keeps
# the others' rows).
row_presets = sorted(set(presets) | {k[1] for k in old})
for p in pairs:
    for pre in row_presets:
        if not on(p, pre):
            continue
        key = (p['program'], pre, p['policy'], p['baseline'])
        row = dict(old.get(key, {}))
        row.update(program=p['program'], preset=pre, policy=p['policy'], baseline=p['baseline'], paper=p['paper'])
        metric = row.get('metric', '')
        for side in ('gpgpusim', 'warpsim'):
            r = res[side]
            a, b = (p['program'], pre, p['policy']), (p['program'], pre, p['baseline'])
            if a in r and b in r:
                s, metric = speedup(r[a], r[b])
                row[f'{side}_speedup'] = f'{s:.4f}'
                row[f'{side}_policy_cycles'] = r[a][0]
                row[f'{side}_baseline_cycles'] = r[b][0]
        row['metric'] = metric
        rows.append(row)
out_path = os.path.join(opt['out'], 'policies.csv') if opt['set'] else ref_path
os.makedirs(os.path.dirname(out_path), exist_ok=True)
with open(out_path, 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=cols, extrasaction='ignore', lineterminator='\n')
    w.writeheader()
    w.writerows(rows)
agree = gaps = 0
for r in rows:
    if r.get('gpgpusim_speedup') and r.get('warpsim_speedup'):
        g, ws = float(r['gpgpusim_speedup']), float(r['warpsim_speedup'])
        same = (g >= 1) == (ws >= 1) or abs(g - 1) < 0.005 or abs(ws - 1) < 0.005
        agree += same
        gaps += abs(g - ws) <= 0.03
        print(f"{r['program']:14} {r['preset']:14} {r['policy']:14} vs {r['baseline']:4}  GPGPU-Sim {g:.3f}  warpsim {ws:.3f}  {'' if same else 'SIGN'} {'' if abs(g - ws) <= 0.03 else 'GAP'}")
print(f'{len(rows)} rows: sign agrees on {agree}, within 3 points on {gaps}; wrote {out_path}')
PY
