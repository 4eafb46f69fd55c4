// Entry of `npm start`: production mode unless told otherwise, set before any library reads it
// (graphql-js skips its development checks, yoga masks errors), then the composition root.
process.env.NODE_ENV ??= "production";
await import("./main.js");
