/** Where GraphQL is served (GraphiQL on GET from a browser). */
export const GRAPHQL_PATH = "/graphql";
