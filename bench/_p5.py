from _support import reference_speed, timed, paired
import partiql, sys
for mode in ("off", "report"):
    db = partiql.connect(throughput=mode)
    db.execute("CREATE TABLE bench (pk STRING, sk NUMBER) PRIMARY KEY (pk HASH, sk RANGE)")
    e = db.engine
    for i in range(10000):
        e.put_item(TableName="bench", Item={"pk": f"user#{i%100}", "sk": i, "age": i % 90, "name": f"name {i}"})
    n = 10000
    upd = lambda i: e.update_item(TableName="bench", Key={"pk": f"user#{i % 100}", "sk": i % n},
                                  UpdateExpression="SET age = age + :one, #n = :name", ExpressionAttributeNames={"#n": "name"},
                                  ExpressionAttributeValues={":one": 1, ":name": f"n{i}"})
    put = lambda i: e.put_item(TableName="bench", Item={"pk": f"user#{i % 100}", "sk": i % n, "age": i, "name": f"n{i}"})
    r = paired({"PutItem": put, "UpdateItem": upd}, 20000, 3)
    print(mode, {k: (f"{v[0]*1e6:.1f} µs", f"x{1/v[1]:.2f}") for k, v in r.items()})
    if len(sys.argv) > 1 and mode == "off":
        import cProfile, pstats
        cProfile.run("for i in range(20000): upd(i)", "/tmp/upd2.prof")
        pstats.Stats("/tmp/upd2.prof").sort_stats("tottime").print_stats(20)
