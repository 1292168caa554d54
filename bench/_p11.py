from _support import reference_speed, paired
import sys, importlib.util
spec = importlib.util.spec_from_file_location("benchengine", "/work/main/bench/engine.py"); B = importlib.util.module_from_spec(spec); spec.loader.exec_module(B)
e = B.make_engine("report"); B.load(e, 10000)
ops = {name: fn for name, fn, *_ in B.operations(e, 10000)}
print(reference_speed())
r = paired({"PutItem": ops["PutItem"], "UpdateItem": ops["UpdateItem"]}, 20000, 5)
print({k: (f"{v[0]*1e6:.1f} µs", f"x{1/v[1]:.2f}") for k, v in r.items()})
if len(sys.argv) > 1:
    import cProfile, pstats
    f = ops["UpdateItem"]
    cProfile.run("for i in range(20000): f(i)", "/tmp/u3.prof")
    pstats.Stats("/tmp/u3.prof").sort_stats("cumtime").print_stats(40)
