import importlib.util, sys, os, torch, time, statistics
def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
def bench(fn, inputs, iters=20):
    with torch.no_grad():
        for _ in range(3): fn(*inputs)
        torch.cuda.synchronize()
        ts = []
        for _ in range(iters):
            s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
            s.record(); fn(*inputs); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    return statistics.median(ts)
prob, cand = sys.argv[1], sys.argv[2]
P = load(prob, "prob")
t0 = time.time(); C = load(cand, "cand"); tl = time.time() - t0
init = P.get_init_inputs()
torch.manual_seed(42); ref = P.Model(*init).cuda()
torch.manual_seed(42); new = C.ModelNew(*init).cuda()
for seed in (0, 1):
    torch.manual_seed(seed)
    with torch.device("cuda"):
        inputs = P.get_inputs()
    with torch.no_grad():
        r = ref(*inputs); o = new(*inputs)
    torch.cuda.synchronize()
    msg = f"{cand} seed{seed}: shape {tuple(o.shape)}/{tuple(r.shape)} dtype {o.dtype}/{r.dtype}"
    if o.shape == r.shape:
        d = (o.double() - r.double()).abs()
        msg += f" max_abs={d.max().item():.3g} nonfinite={(~torch.isfinite(o.double())).sum().item()}"
        if o.dtype == r.dtype:
            msg += f" allclose={torch.allclose(o, r, atol=1e-4, rtol=1e-4)} equal={torch.equal(o, r)}"
    print(msg, flush=True)
tr = bench(ref, inputs); tn = bench(new, inputs)
print(f"{cand}: load {tl:.1f}s  ref {tr:.4f} ms  new {tn:.4f} ms  speedup {tr/tn:.3f}", flush=True)
