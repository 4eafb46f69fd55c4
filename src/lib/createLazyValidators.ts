import { AjvCompiler, type BuildCompilerFromPool } from "@fastify/ajv-compiler";

type CompileRoute = ReturnType<BuildCompilerFromPool>;

/**
 * Fastify's own validator compiler (@fastify/ajv-compiler, given Fastify's options) compiling a
 * route's schema on its first request, not before listening (docs/benchmarks.md, Start). Fastify
 * reads the validator's `schemaEnv` and `errors` too: either compiles it first.
 */
export function createLazyValidators(): BuildCompilerFromPool {
  const build = AjvCompiler();
  return (externalSchemas, options) => {
    let compileRoute: CompileRoute | undefined;
    const compiler = (): CompileRoute => {
      compileRoute ??= build(externalSchemas, options);
      return compileRoute;
    };
    return ((route) => {
      let compiled: ReturnType<CompileRoute> | undefined;
      const compile = () => (compiled ??= compiler()(route));
      return Object.defineProperties(
        function (this: unknown, ...args: unknown[]) {
          return (compile() as (...args: unknown[]) => unknown).apply(this, args);
        },
        { schemaEnv: { get: () => compile().schemaEnv }, errors: { get: () => compile().errors } },
      );
    }) as CompileRoute;
  };
}
