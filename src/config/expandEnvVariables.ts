import { ConfigError } from "../errors.js";

// ${NAME} or ${NAME:-default}; $${ is a literal "${".
const VARIABLE = /\$(\$)?\{([^}]*)\}/g;
const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Replaces `${NAME}` (and `${NAME:-default}`) in every string of parsed configuration JSON with
 * the environment's value, so keys can stay out of the file. A variable that is not set, with no
 * default, is an error naming the field and the variable.
 */
export function expandEnvVariables(
  json: unknown,
  env: Readonly<Record<string, string | undefined>>,
  source: string,
  path: readonly (string | number)[] = [],
): unknown {
  if (typeof json === "string") {
    if (!json.includes("${")) return json;
    const field = path.join(".") || "(root)";
    return json.replace(VARIABLE, (whole, escaped: string | undefined, inner: string) => {
      if (escaped !== undefined) return whole.slice(1);
      const match = NAME.exec(inner);
      if (match === null) {
        throw new ConfigError(
          `Invalid configuration in ${source}: ${field}: "\${${inner}}" is not a variable reference (expected \${NAME} or \${NAME:-default})`,
        );
      }
      const value = env[match[1]!];
      if (value !== undefined) return value;
      if (match[2] !== undefined) return match[2];
      throw new ConfigError(
        `Invalid configuration in ${source}: ${field}: the environment variable ${match[1]} is not set (the file refers to \${${match[1]}})`,
      );
    });
  }
  if (Array.isArray(json)) return json.map((item, i) => expandEnvVariables(item, env, source, [...path, i]));
  if (json !== null && typeof json === "object") {
    return Object.fromEntries(
      Object.entries(json).map(([key, value]) => [
        key,
        expandEnvVariables(value, env, source, [...path, key]),
      ]),
    );
  }
  return json;
}
