/** True for a `db` setting that names a PostgreSQL database (`postgres://…` or `postgresql://…`). */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db.trim());
}

/** The URL with any password replaced, fit for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
