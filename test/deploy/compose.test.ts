import { existsSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
// docker compose itself validates the file in CI where docker is; this test runs everywhere.
import { parse } from "yaml";
import { NETWORKS } from "../../src/domain/types.js";

const root = new URL("../..", import.meta.url).pathname;
const read = (path: string) => readFileSync(`${root}${path}`, "utf8");

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }> | string[];
  deploy?: { replicas?: number };
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
}

const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<string, Service>;
};
const prometheus = parse(read("prometheus.yml")) as {
  scrape_configs: {
    job_name: string;
    metrics_path: string;
    static_configs?: { targets: string[] }[];
    dns_sd_configs?: { names: string[]; type: string; port: number }[];
  }[];
};

describe("compose.yaml", () => {
  test("behavior: PostgreSQL, one writer, two API replicas and Prometheus, wired together", () => {
    const { postgres, writer, api, prometheus: scraper } = compose.services;
    expect(Object.keys(compose.services).sort()).toEqual(["api", "postgres", "prometheus", "writer"]);
    expect(postgres?.healthcheck?.test).toContain("pg_isready");
    expect(writer?.environment?.SWAPGRAPH_ROLE).toBe("all");
    expect(writer?.deploy?.replicas ?? 1).toBe(1);
    expect(api?.environment?.SWAPGRAPH_ROLE).toBe("api");
    expect(api?.deploy?.replicas).toBe(2);
    for (const service of [writer!, api!]) {
      const env = service.environment!;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/swapgraph:.*@postgres:5432\/swapgraph$/);
      expect(env.HOST).toBe("0.0.0.0");
      expect(service.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
      // The configuration file is mounted where SWAPGRAPH_CONFIG points.
      expect(service.volumes?.some((volume) => volume.endsWith(`:${env.SWAPGRAPH_CONFIG}:ro`))).toBe(true);
      // RPC URLs pass through from .env, one variable per network swapgraph knows.
      const rpc = Object.keys(env).filter((name) => name.startsWith("SWAPGRAPH_RPC_"));
      expect(rpc.sort()).toEqual(NETWORKS.map((n) => `SWAPGRAPH_RPC_${n.toUpperCase()}`).sort());
      expect(rpc.every((name) => env[name] === null)).toBe(true);
    }
    expect(scraper?.volumes).toContain("./prometheus.yml:/etc/prometheus/prometheus.yml:ro");
  });

  test("behavior: Prometheus scrapes /metrics of the writer and of every API replica", () => {
    const jobs = prometheus.scrape_configs;
    expect(jobs.every((job) => job.metrics_path === "/metrics")).toBe(true);
    expect(jobs.flatMap((job) => job.static_configs?.flatMap((c) => c.targets) ?? [])).toEqual([
      "writer:4000",
    ]);
    expect(jobs.flatMap((job) => job.dns_sd_configs ?? [])).toEqual([
      expect.objectContaining({ names: ["api"], type: "A", port: 4000 }),
    ]);
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const ignored = read(".dockerignore")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

  test("behavior: multi-stage, runs the build as a non-root user with a health check", () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages.length).toBe(2);
    const runtime = stages[1]!;
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\\\n\s+CMD .*\/health/m);
    expect(runtime).toMatch(/^CMD \["node", "--enable-source-maps", "dist\/start\.js"\]$/m);
    expect(stages[0]).toMatch(/RUN npm run build/);
  });

  test("behavior: every file the image copies from the context exists and is not ignored", () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(" "));
    expect(sources).toContain("src");
    for (const source of sources) {
      expect(existsSync(`${root}${source}`), source).toBe(true);
      expect(ignored.includes(source.split("/")[0]!), source).toBe(false);
    }
  });
});
