import importlib.util, sys, torch, statistics
for p in sys.argv[1:]:
    spec = importlib.util.spec_from_file_location("p", p); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    torch.manual_seed(42); model = m.Model(*m.get_init_inputs()).cuda()
    torch.manual_seed(0)
    with torch.device("cuda"):
        inputs = m.get_inputs()
    with torch.no_grad():
        for _ in range(3): out = model(*inputs)
        torch.cuda.synchronize(); ts = []
        for _ in range(20):
            s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
            s.record(); model(*inputs); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    print(f"{p}: median {statistics.median(ts):.4f} ms  out {tuple(out.shape)} {out.dtype} devs {[x.device.type for x in inputs if torch.is_tensor(x)]}", flush=True)
    del model, inputs, out; torch.cuda.empty_cache()
