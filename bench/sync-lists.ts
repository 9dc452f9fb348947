/**
 * The LISTs a sync sends, read from its own -v=8 request log: a line `L <path>` per first page (`M <path>` for a
 * metadata-only list, as sync lists CRDs), for the floor clients to send the same (bench/floor-client.ts,
 * bench/fleet-floor-client.ts).
 */
export function listsFromLog(log: string): string[] {
  const lines: string[] = [];
  const logLines = log.split('\n');
  for (const [i, line] of logLines.entries()) {
    const get = /\] GET https?:\/\/[^/]+(\/\S*[?&]limit=\d+\S*)$/.exec(line);
    if (get === null || (get[1] ?? '').includes('continue=')) continue;
    const accept = logLines.slice(i + 1, i + 12).find((l) => /\]\s+Accept: /.test(l)) ?? '';
    lines.push(`${accept.includes('PartialObjectMetadataList') ? 'M' : 'L'} ${get[1] ?? ''}`);
  }
  return lines;
}
