/** JSON as the commands print it, in a module of its own: -o json never loads the `yaml` package (format-data.ts). */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
