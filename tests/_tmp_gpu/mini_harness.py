# Tiny stand-in harness: classify one candidate on CPU (or cuda if argv[3]=="cuda").
import importlib.util, sys, torch
prob, cand = sys.argv[1], sys.argv[2]
dev = sys.argv[3] if len(sys.argv) > 3 else "cpu"
def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
P = load(prob, "prob")
try:
    C = load(cand, "cand")
    ModelNew = C.ModelNew
    torch.manual_seed(42); new = ModelNew(*P.get_init_inputs()).to(dev)
except BaseException as e:
    print("VERDICT load_error", type(e).__name__, e); sys.exit(0)
torch.manual_seed(42); ref = P.Model(*P.get_init_inputs()).to(dev)
verdict = "correct"
for seed in (1, 2, 3):
    torch.manual_seed(seed)
    with torch.device(dev):
        inputs = P.get_inputs()
    saved = [x.clone() for x in inputs]
    try:
        with torch.no_grad():
            out = new(*inputs)
        if dev == "cuda": torch.cuda.synchronize()
    except BaseException as e:
        print("VERDICT runtime_error", type(e).__name__, str(e)[:200]); sys.exit(0)
    if any(not torch.equal(x, s) for x, s in zip(inputs, saved)):
        print("VERDICT rejected (input mutated)"); sys.exit(0)
    with torch.no_grad():
        r = ref(*saved)
    if not isinstance(out, torch.Tensor) or out.shape != r.shape or out.dtype != r.dtype or not torch.allclose(out, r, atol=1e-4, rtol=1e-4):
        desc = type(out).__name__ if not isinstance(out, torch.Tensor) else f"{tuple(out.shape)} {out.dtype}"
        verdict = f"incorrect (seed {seed}: {desc})"; break
print("VERDICT", verdict)
