package lookup.opensearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.settings.Settings;
import org.opensearch.geo.GeoModulePlugin;
import org.opensearch.index.mapper.MapperExtrasPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * Single-node OpenSearch for local development, started in-process.
 *
 * Options (CLI wins over env):
 *   --data-dir=DIR        / OPENSEARCH_DATA_DIR        (default: &lt;repo&gt;/var/opensearch)
 *   --http-port=N         / OPENSEARCH_HTTP_PORT       (default: 9200)
 *   --transport-port=N    / OPENSEARCH_TRANSPORT_PORT  (default: 9300)
 *   -Ekey=value           any extra node setting
 */
public final class EmbeddedOpenSearch {

    // The distribution normally loads these as modules from modules/; embedded we hand them over
    // as classpath plugins, which only the protected Node constructor accepts.
    private static final List<Class<? extends Plugin>> PLUGINS = List.of(
            Netty4Plugin.class,          // HTTP + transport
            CommonAnalysisPlugin.class,  // asciifolding, edge_ngram, ...
            MapperExtrasPlugin.class,    // search_as_you_type, token_count, scaled_float, ...
            GeoModulePlugin.class);      // geo_shape, geo aggregations

    static final class EmbeddedNode extends Node {
        EmbeddedNode(Settings settings) {
            super(InternalSettingsPreparer.prepareEnvironment(settings, Collections.emptyMap(), null, () -> "lookup-dev"),
                    PLUGINS, true);
        }
    }

    public static void main(String[] args) throws Exception {
        Path dataDir = Paths.get(opt(args, "data-dir", "OPENSEARCH_DATA_DIR", defaultDataDir())).toAbsolutePath().normalize();
        String httpPort = opt(args, "http-port", "OPENSEARCH_HTTP_PORT", "9200");
        String transportPort = opt(args, "transport-port", "OPENSEARCH_TRANSPORT_PORT", "9300");
        Files.createDirectories(dataDir.resolve("data"));
        Files.createDirectories(dataDir.resolve("logs"));

        Settings.Builder settings = Settings.builder()
                .put("cluster.name", "lookup")
                .put("node.name", "lookup-dev")
                .put("path.home", dataDir.toString())
                .put("path.data", dataDir.resolve("data").toString())
                .put("path.logs", dataDir.resolve("logs").toString())
                .put("discovery.type", "single-node")
                .put("network.host", "127.0.0.1")
                .put("http.port", httpPort)
                .put("transport.port", transportPort)
                .put("cluster.routing.allocation.disk.threshold_enabled", false);
        for (String a : args) {
            if (a.startsWith("-E") && a.indexOf('=') > 2) {
                settings.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            }
        }

        Node node = new EmbeddedNode(settings.build());
        CountDownLatch closed = new CountDownLatch(1);
        // log4j's own shutdown hook is disabled (-Dlog4j.shutdownHookEnabled=false) so that the
        // node can still log while closing on SIGTERM/SIGINT.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                closed.countDown();
            }
        }, "opensearch-shutdown"));

        try {
            node.start();
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1); // runs the hook, which closes the half-started node
        }
        System.out.println("OpenSearch " + org.opensearch.Version.CURRENT + " listening on http://127.0.0.1:" + httpPort
                + " (data: " + dataDir + ")");
        closed.await();
    }

    private static String opt(String[] args, String name, String env, String def) {
        for (String a : args) {
            if (a.startsWith("--" + name + "=")) {
                return a.substring(name.length() + 3);
            }
        }
        String v = System.getenv(env);
        return v == null || v.isBlank() ? def : v;
    }

    /** &lt;repo&gt;/var/opensearch, derived from target/opensearch-launcher.jar living in &lt;repo&gt;/tools/opensearch. */
    private static String defaultDataDir() {
        try {
            Path jar = Paths.get(EmbeddedOpenSearch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().getParent().getParent().getParent().resolve("var/opensearch").toString();
        } catch (Exception e) {
            return "var/opensearch";
        }
    }
}
