/** Keeps the last lines a process wrote to stderr, bounded in count and length. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = "";

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineLength = 500,
    private readonly onLine?: (line: string) => void,
  ) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split("\n");
    this.partial = (parts.pop() ?? "").slice(-this.maxLineLength * 4);
    for (const line of parts) this.add(line.replace(/\r$/, ""));
  }

  end(): void {
    if (this.partial) this.add(this.partial);
    this.partial = "";
  }

  /** The kept lines, oldest first, including an unfinished last line. */
  text(): string {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.join("\n");
  }

  /** `text()` formatted to end an error message, or "" when nothing was written. */
  suffix(): string {
    const text = this.text().trim();
    return text ? `\nServer stderr (last lines):\n${text}` : "";
  }

  /** Adds one whole line from elsewhere (what the server wrote to stdout that was not a message). */
  add(line: string): void {
    this.onLine?.(line);
    this.lines.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.shift();
  }
}
