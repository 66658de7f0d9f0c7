import { assertMatchesSchema } from './response-schemas.js';
import { redactString } from './redaction.js';

/** A complete HTTP response with chainable assertions whose failures show the request line and the body. */
export class Response {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly text: string,
    /** Parsed with integers as bigint and decimals as number; undefined when the body is not JSON. */
    // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
    readonly body: any,
    /** Parsed with plain JSON.parse (what schemas see); undefined when the body is not JSON. */
    readonly json: unknown,
    readonly durationMs: number,
  ) {}

  /** `body.resource` of a v4 success; fails when absent. */
  // biome-ignore lint/suspicious/noExplicitAny: a server's JSON, which tests read by path and assert on with expect; typed, every read in the suite would need a cast
  get resource(): any {
    if (this.body === null || typeof this.body !== 'object' || !('resource' in this.body)) {
      throw new Error(this.explain('has no "resource" field'));
    }
    return this.body.resource;
  }

  expectStatus(...accepted: number[]): this {
    if (!accepted.includes(this.status)) {
      throw new Error(this.explain(`answered status ${this.status}, expected ${accepted.join(' or ')}`));
    }
    return this;
  }

  expectSchema(name: string): this {
    assertMatchesSchema(name, this.json, `${this.method} ${this.path} (status ${this.status})`, this.text);
    return this;
  }

  /** The error code: v4 `errors[0].code` or v10 `error.code`. Pass several codes when any of them is accepted. */
  get errorCode(): string | undefined {
    const b = this.body;
    if (b && typeof b === 'object') {
      if (Array.isArray(b.errors) && b.errors[0] && typeof b.errors[0].code === 'string') return b.errors[0].code;
      if (b.error && typeof b.error.code === 'string') return b.error.code;
    }
    return undefined;
  }

  expectErrorCode(...accepted: string[]): this {
    const code = this.errorCode;
    if (code === undefined || !accepted.includes(code)) {
      throw new Error(
        this.explain(
          `error code ${code === undefined ? '(none)' : JSON.stringify(code)}, expected ${accepted.map((c) => JSON.stringify(c)).join(' or ')}`,
        ),
      );
    }
    return this;
  }

  /** A failure message naming the request and showing the redacted body. */
  explain(problem: string): string {
    const shown = this.text.length > 4000 ? `${this.text.slice(0, 4000)}… (${this.text.length} characters)` : this.text;
    return `${this.method} ${this.path} ${problem}\nstatus: ${this.status}\nbody: ${redactString(shown)}`;
  }
}
