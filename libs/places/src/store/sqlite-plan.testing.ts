import type Database from 'better-sqlite3';

/**
 * Statistics under which SQLite would rather walk the (country, object) index than the R*Tree:
 * the whole register's sizes (2.9 M documents, as many points), a country and kind seemingly a
 * hundred and ten rows. A reviewer's multi-country store had such statistics (reverse lookups
 * took 2.2-3.4 s); plan tests use them to show a query keeps its written join order.
 */
export function favourCountryIndex(db: Database.Database): void {
  db.exec('ANALYZE');
  db.exec("DELETE FROM sqlite_stat1 WHERE tbl IN ('places', 'places_rtree_rowid')");
  db.prepare(
    "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('places', 'places_country_object', '2900000 100 10'), ('places', 'sqlite_autoindex_places_1', '2900000 1'), ('places_rtree_rowid', NULL, '2900000')",
  ).run();
  db.exec('ANALYZE sqlite_schema');
}

/** EXPLAIN QUERY PLAN's details, in order. */
export function queryPlan(db: Database.Database, sql: string, params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
}
