import { AjvCompiler, type BuildCompilerFromPool } from "@fastify/ajv-compiler";

type CompileRoute = ReturnType<BuildCompilerFromPool>;
type Validate = ReturnType<CompileRoute>;

/**
 * Fastify's own validator compiler (@fastify/ajv-compiler, the options Fastify gives it
 * unchanged), compiling each route's schema on the route's first request instead of when the
 * server gets ready: the start compiled every route's query schema with ajv before listening,
 * about a fifth of its CPU (docs/benchmarks.md, Start). What a compiled validator does and says
 * is unchanged; Fastify reads `schemaEnv` (to let ajv coerce the root value) and `errors`, and
 * either compiles it first.
 */
export function createLazyValidators(): BuildCompilerFromPool {
  const build = AjvCompiler();
  return (externalSchemas, options) => {
    let compileRoute: CompileRoute | undefined;
    return ((route) => {
      let compiled: Validate | undefined;
      const compile = (): Validate => {
        compileRoute ??= build(externalSchemas, options);
        compiled ??= compileRoute(route);
        return compiled;
      };
      const validate = function (this: unknown, ...args: unknown[]) {
        return (compile() as (...a: unknown[]) => unknown).apply(this, args);
      };
      return Object.defineProperties(validate, {
        schemaEnv: { get: () => (compile() as { schemaEnv?: unknown }).schemaEnv },
        errors: { get: () => compile().errors },
      });
    }) as CompileRoute;
  };
}
