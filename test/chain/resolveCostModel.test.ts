import { describe, expect, test } from "vitest";
import { meteredProviderOf, resolveCostModel } from "../../src/chain/resolveCostModel.js";

describe("resolveCostModel", () => {
  test("behavior: auto prices a self-hosted node or a devnet by time", () => {
    expect(
      resolveCostModel("auto", undefined, ["http://127.0.0.1:8545", "https://bsc.internal:8545"]),
    ).toEqual({
      model: "time",
      reason: "no rpc.computeUnits and no RPC URL of a known metered provider",
    });
  });

  test("behavior: auto prices by compute units when they are configured or a URL is a metered provider's", () => {
    expect(resolveCostModel("auto", { eth_getLogs: 60 }, ["http://127.0.0.1:8545"]).model).toBe(
      "computeUnits",
    );
    const failover = ["http://127.0.0.1:8545", "https://bsc-mainnet.nodereal.io/v1/SECRETKEY"];
    const resolved = resolveCostModel("auto", undefined, failover);
    expect(resolved.model).toBe("computeUnits");
    // The reason names the provider, never the URL's key.
    expect(resolved.reason).toBe("an RPC URL is NodeReal's (metered)");
  });

  test("args: an explicit model stands, whatever the URLs", () => {
    expect(resolveCostModel("bytes", undefined, ["https://eth-mainnet.g.alchemy.com/v2/KEY"]).model).toBe(
      "bytes",
    );
    expect(resolveCostModel("time", { eth_getLogs: 60 }, []).model).toBe("time");
  });
});

describe("meteredProviderOf", () => {
  test("args: recognised by the host's last labels only", () => {
    expect(meteredProviderOf("https://eth-mainnet.g.alchemy.com/v2/KEY")).toBe("Alchemy");
    expect(meteredProviderOf("wss://mainnet.infura.io/ws/v3/KEY")).toBe("Infura");
    expect(meteredProviderOf("https://name.bsc.quiknode.pro/TOKEN/")).toBe("QuickNode");
    expect(meteredProviderOf("https://rpc.ankr.com/bsc/KEY")).toBe("Ankr");
    expect(meteredProviderOf("https://nd-123-456.p2pify.com/KEY")).toBe("Chainstack");
    expect(meteredProviderOf("https://lb.drpc.org/ogrpc?network=bsc&dkey=KEY")).toBe("dRPC");
    // A look-alike host or a provider's name in the path is not the provider.
    expect(meteredProviderOf("https://alchemy.com.example.org/")).toBeUndefined();
    expect(meteredProviderOf("https://notinfura.io/")).toBeUndefined();
    expect(meteredProviderOf("http://127.0.0.1:8545/alchemy.com")).toBeUndefined();
    expect(meteredProviderOf("not a url")).toBeUndefined();
  });
});
