<?php
// Runs calls of the real PHP SDK against our server and prints what each gave, as JSON:
// php sdk-runner.php <autoload.php> <api base> <calls.json>
// A call: {"key": "...", "call": "Places::query", "args": [...]}. The SDK is used as its users
// use it: static methods, Swiftyper::setApiKey, exceptions caught by class.
require $argv[1];
\Swiftyper\Swiftyper::$apiBase = $argv[2];
$calls = json_decode(file_get_contents($argv[3]), true);
$out = [];
foreach ($calls as $c) {
    \Swiftyper\Swiftyper::setApiKey($c['key']);
    list($class, $method) = explode('::', $c['call']);
    try {
        $result = call_user_func_array(['\\Swiftyper\\' . $class, $method], $c['args']);
        $value = $result instanceof \Swiftyper\SwiftyperObject ? $result->toArray() : $result;
        $status = $result instanceof \Swiftyper\SwiftyperObject && $result->getLastResponse() ? $result->getLastResponse()->code : null;
        $out[] = ['ok' => true, 'status' => $status, 'class' => is_object($result) ? get_class($result) : gettype($result), 'value' => $value];
    } catch (\Swiftyper\Exception\ApiErrorException $e) {
        $out[] = ['ok' => false, 'exception' => get_class($e), 'status' => $e->getHttpStatus(), 'code' => $e->getSwiftyperCode(), 'param' => method_exists($e, 'getSwiftyperParam') ? $e->getSwiftyperParam() : null, 'message' => $e->getMessage()];
    } catch (\Throwable $e) {
        $out[] = ['ok' => false, 'exception' => get_class($e), 'message' => $e->getMessage()];
    }
}
echo json_encode($out, JSON_UNESCAPED_UNICODE | JSON_PARTIAL_OUTPUT_ON_ERROR);
