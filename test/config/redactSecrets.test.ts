import { describe, expect, test } from "vitest";
import { redactSecrets, redactUrl } from "../../src/config/redactSecrets.js";

describe("redactUrl", () => {
  test("behavior: an RPC URL keeps its host; path, query and password are masked", () => {
    expect(redactUrl("https://bsc-mainnet.infura.io/v3/0123abcd")).toBe("https://bsc-mainnet.infura.io/***");
    expect(redactUrl("https://rpc.ankr.com/bsc?apikey=SECRET")).toBe("https://rpc.ankr.com/***");
    expect(redactUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
    expect(redactUrl("https://user:pa55@node.example:8443/")).toBe("https://user:***@node.example:8443");
    expect(redactUrl("wss://node.example/ws/KEY")).toBe("wss://node.example/***");
  });

  test("behavior: a database URL keeps user, host and database; the password and query are masked", () => {
    expect(redactUrl("postgres://swapgraph:s3cret@db:5432/swapgraph")).toBe(
      "postgres://swapgraph:***@db:5432/swapgraph",
    );
    expect(redactUrl("postgresql://u@db/x?password=s3cret")).toBe("postgresql://u@db/x?***");
  });

  test("error: what does not parse is hidden whole", () => {
    expect(redactUrl("https://exa mple/KEY")).toBe("[url]");
  });
});

describe("redactSecrets", () => {
  test("behavior: every URL in a text is redacted, sentence punctuation and JSON stay intact", () => {
    const viem = [
      "HTTP request failed.",
      "",
      "Status: 503",
      "URL: http://127.0.0.1:9/v3/SECRETKEY",
      'Request body: {"method":"eth_blockNumber","params":[]}',
      "",
      "Version: viem@2.57.20",
    ].join("\n");
    const line = JSON.stringify({ level: 40, err: viem, db: "postgres://a:SECRETPW@h/d" });
    const redacted = redactSecrets(line);
    expect(redacted).not.toMatch(/SECRETKEY|SECRETPW/);
    expect(JSON.parse(redacted)).toMatchObject({ db: "postgres://a:***@h/d" });
    expect((JSON.parse(redacted) as { err: string }).err).toContain("URL: http://127.0.0.1:9/***\n");
    expect(redactSecrets("failed at https://rpc.example/KEY.")).toBe("failed at https://rpc.example/***.");
    expect(redactSecrets("(see https://x.example/a/b), then")).toBe("(see https://x.example/***), then");
    expect(redactSecrets("no url here")).toBe("no url here");
  });

  test("args: a replacement hides URLs entirely (public messages)", () => {
    expect(redactSecrets("eth_getLogs failed at https://rpc.example/KEY", () => "[url]")).toBe(
      "eth_getLogs failed at [url]",
    );
  });
});
