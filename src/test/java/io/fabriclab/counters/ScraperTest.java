package io.fabriclab.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.fabriclab.diagram.CongestionFrame;
import io.fabriclab.model.Fabric;

/**
 * The scrape path against a real HTTP server (the JDK's com.sun.net.httpserver) serving Prometheus
 * text: samples arrive, rates are computed between them, the picture they make changes; an endpoint
 * that answers an error, one that never answers and a closed port are reported and the scraper goes on.
 */
class ScraperTest {
    private HttpServer server;
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void stop() {
        never.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    /** A switch exporter whose PFC and ECN counters grow by 100 and 1,000 each scrape. */
    private URI serve(AtomicInteger scrapes) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", ex -> {
            int n = scrapes.incrementAndGet();
            String body = "# TYPE sonic_pfc_tx_frames_total counter\n"
                    + "sonic_pfc_tx_frames_total{hostname=\"leaf1\",interface=\"eth9\",priority=\"3\"} " + (100 * n) + "\n"
                    + "# TYPE sonic_queue_ecn_marked_packets_total counter\n"
                    + "sonic_queue_ecn_marked_packets_total{hostname=\"leaf1\",interface=\"eth1\",queue=\"UC3\"} " + (1000 * n) + "\n";
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.createContext("/broken", ex -> {
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        server.createContext("/silent", ex -> {
            try {
                never.await(); // never answers while the test runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-exporter");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private record Event(CounterSample sample, Measured rates, String failure) {
    }

    private static Scraper.Listener into(LinkedBlockingQueue<Event> q) {
        return new Scraper.Listener() {
            @Override
            public void sampled(CounterSample sample, Measured rates, int scrapes) {
                q.add(new Event(sample, rates, null));
            }

            @Override
            public void failed(String message, int failures) {
                q.add(new Event(null, null, message));
            }
        };
    }

    @Test
    void samplesArriveRatesAreComputedAndThePictureChanges() throws Exception {
        Fabric f = CountersReadersTest.fabric();
        URI base = serve(new AtomicInteger());
        LinkedBlockingQueue<Event> q = new LinkedBlockingQueue<>();
        try (Scraper s = new Scraper(base.resolve("/metrics"), Duration.ofSeconds(1), Duration.ofSeconds(5), f, PortMap.NONE, into(q))) {
            assertTrue(s.scrapeOnce());
            Event first = q.take();
            assertNull(first.rates(), "one sample: no rate yet");
            Thread.sleep(20); // the second sample must be later than the first
            assertTrue(s.scrapeOnce());
            Event second = q.take();
            Measured m = second.rates();
            double seconds = (second.sample().time().toEpochMilli() - first.sample().time().toEpochMilli()) / 1000.0;
            assertEquals(100 / seconds, m.ports().get("leaf1:eth9").rate(CounterKind.PFC_TX, 3), 1e-6,
                    "100 more frames over the time between the two answers");
            assertEquals(1000 / seconds, m.figures("leaf1:eth1").ecnPerS(), 1e-6);
            // The layer's picture: leaf1:eth9's peer (spine1) is paused by it, leaf1:eth1 sparks.
            CongestionFrame.Directions dirs = new CongestionFrame.Directions(new ArrayList<>(f.links()));
            CongestionFrame frame = CountersFrame.frame(f, dirs, CountersFrame.figures(CountersFrame.View.MEASURED, m, null), seconds);
            var uplink = f.linkAt(f.port("leaf1:eth9"));
            int towardLeaf = dirs.of(uplink, uplink.a() != f.port("leaf1:eth9"));
            assertTrue(frame.paused[towardLeaf], "the spine's egress toward leaf1 is paused");
            var down = f.linkAt(f.port("leaf1:eth1"));
            assertTrue(frame.marksPerUs[dirs.of(down, down.a() == f.port("leaf1:eth1"))] > 0);
        }
    }

    @Test
    void theScheduledLoopDeliversSamplesOnItsOwnThread() throws Exception {
        URI base = serve(new AtomicInteger());
        LinkedBlockingQueue<Event> q = new LinkedBlockingQueue<>();
        List<String> threads = new ArrayList<>();
        Scraper.Listener l = new Scraper.Listener() {
            @Override
            public void sampled(CounterSample sample, Measured rates, int scrapes) {
                threads.add(Thread.currentThread().getName());
                q.add(new Event(sample, rates, null));
            }

            @Override
            public void failed(String message, int failures) {
                q.add(new Event(null, null, message));
            }
        };
        try (Scraper s = new Scraper(base.resolve("/metrics"), Duration.ofMillis(50), Duration.ofSeconds(5),
                CountersReadersTest.fabric(), PortMap.NONE, l)) {
            s.start();
            Event a = q.poll(30, TimeUnit.SECONDS);
            Event b = q.poll(30, TimeUnit.SECONDS);
            assertTrue(a != null && b != null && b.rates() != null, "two samples, the second with rates");
        }
        assertTrue(threads.stream().allMatch(t -> t.startsWith("counters-scrape")), threads.toString());
    }

    @Test
    void aDeadEndpointIsReportedAndTheScraperGoesOn() throws Exception {
        URI base = serve(new AtomicInteger());
        LinkedBlockingQueue<Event> q = new LinkedBlockingQueue<>();
        Fabric f = CountersReadersTest.fabric();
        try (Scraper s = new Scraper(base.resolve("/broken"), Duration.ofSeconds(1), Duration.ofSeconds(5), f, PortMap.NONE, into(q))) {
            assertTrue(!s.scrapeOnce());
            assertTrue(q.take().failure().contains("HTTP 500"));
        }
        // A scrape that never answers: the timeout reports it, the call returns.
        try (Scraper s = new Scraper(base.resolve("/silent"), Duration.ofSeconds(1), Duration.ofMillis(300), f, PortMap.NONE, into(q))) {
            assertTrue(!s.scrapeOnce());
            String failure = q.take().failure();
            assertTrue(failure.contains("did not answer within 0.3 s"), failure);
        }
        // Nothing listening.
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (Scraper s = new Scraper(URI.create("http://127.0.0.1:" + port + "/metrics"), Duration.ofSeconds(1),
                Duration.ofSeconds(2), f, PortMap.NONE, into(q))) {
            assertTrue(!s.scrapeOnce());
            assertTrue(q.take().failure().startsWith("http://127.0.0.1:" + port), "the URL is named");
        }
    }
}
