// Entry of `npm start`: production mode unless told otherwise, set before any library reads it
// (graphql-js skips its development checks, yoga masks errors), then the composition root.
import module from "node:module";

process.env.NODE_ENV ??= "production";
// Node 22.1 and later keep V8's compiled code of what loads next on disk (in the system's temporary
// directory), so a restart skips compiling it; Node 20 has no such cache and this does nothing.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./main.js");
