import { expect, test } from "vitest";
import { describeStores } from "../support/storeBackends.js";
import { addr } from "../support/storeFixtures.js";

describeStores("store pools and tokens", ({ fresh }) => {
  test("behavior: tokens and rejected pairs upsert without duplicates", async () => {
    const store = await fresh();
    await store.upsertTokens("bsc", [
      { address: "", name: "BNB", symbol: "BNB", decimals: 18 },
      { address: addr(0x70), name: "Tether USD", symbol: "USDT", decimals: 18 },
    ]);
    await store.upsertTokens("bsc", [
      { address: addr(0x70), name: "Tether USD", symbol: "USDT-old", decimals: 6 },
      { address: addr(0x70), name: "Tether USD", symbol: "USDT", decimals: 6 },
      { address: addr(0x71), name: "Wrapped BNB", symbol: "WBNB", decimals: 18 },
      // Free text must survive bulk writes unchanged: quotes, backslashes, commas, braces, "NULL", "".
      { address: addr(0x72), name: 'Odd "Token", {x} \\ y', symbol: "NULL", decimals: 0 },
      { address: addr(0x73), name: "", symbol: "", decimals: 255 },
    ]);
    await store.upsertTokens("bsc", []);
    expect(await store.listTokens("bsc")).toEqual([
      { address: "", name: "BNB", symbol: "BNB", decimals: 18 },
      { address: addr(0x70), name: "Tether USD", symbol: "USDT", decimals: 6 },
      { address: addr(0x71), name: "Wrapped BNB", symbol: "WBNB", decimals: 18 },
      { address: addr(0x72), name: 'Odd "Token", {x} \\ y', symbol: "NULL", decimals: 0 },
      { address: addr(0x73), name: "", symbol: "", decimals: 255 },
    ]);
    expect(await store.listTokens("eth")).toEqual([]);

    await store.addRejectedPairs("bsc", [addr(0xd2), addr(0xd1), addr(0xd2)]);
    await store.addRejectedPairs("bsc", [addr(0xd1), addr(0xd3)]);
    await store.addRejectedPairs("bsc", []);
    expect(await store.listRejectedPairs("bsc")).toEqual([addr(0xd1), addr(0xd2), addr(0xd3)]);
    expect(await store.listRejectedPairs("polygon")).toEqual([]);
  });
});
