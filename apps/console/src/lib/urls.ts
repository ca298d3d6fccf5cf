/**
 * Only http(s) URLs become links: visitor-supplied URLs (the page a visitor came from, the pages it
 * visits) could otherwise be `javascript:` or `data:` links run with the agent's session on click.
 */
export function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url.trim()) ? url.trim() : undefined;
}
