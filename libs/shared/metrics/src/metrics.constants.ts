/** Metric names, in one place so dashboards, alerts and tests agree with the code. */
export const MetricNames = {
  httpRequests: 'lookup_http_requests_total',
  httpDuration: 'lookup_http_request_duration_seconds',
  httpErrors: 'lookup_http_errors_total',
  quotaRejections: 'lookup_quota_rejections_total',
  transportRequests: 'lookup_transport_requests_total',
  transportDuration: 'lookup_transport_request_duration_seconds',
  transportTimeouts: 'lookup_transport_timeouts_total',
  transportNoResponders: 'lookup_transport_no_responders_total',
  rpcHandled: 'lookup_rpc_handled_total',
  rpcDuration: 'lookup_rpc_duration_seconds',
  engineDuration: 'lookup_engine_request_duration_seconds',
  indexerDocuments: 'lookup_indexer_documents_total',
  indexerProgress: 'lookup_indexer_progress_ratio',
  indexerRuns: 'lookup_indexer_runs_total',
  indexerLastSuccess: 'lookup_indexer_last_success_timestamp_seconds',
  indexerRunning: 'lookup_indexer_running',
  indexerRate: 'lookup_indexer_documents_per_second',
} as const;

export const METRICS_PATH = '/metrics';

/** Route label for requests no route matched: keeps random URLs from creating label values. */
export const UNMATCHED_ROUTE = 'unmatched';

export type TransportOutcome = 'ok' | 'error' | 'timeout' | 'no_responder';
