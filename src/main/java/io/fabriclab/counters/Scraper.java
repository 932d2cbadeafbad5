package io.fabriclab.counters;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

/**
 * Scrapes a Prometheus endpoint at an interval (java.net.http, the JDK's HTTP client) on a thread
 * of its own, never the caller's: each answer is a sample stamped with its own timestamps or the
 * time it arrived; from the second one on, the rates between the last two samples go to the
 * listener, so a picture moves as samples arrive. An endpoint that refuses, answers an error,
 * sends more than {@link CountersFile#MAX_BYTES} or does not answer within the timeout is reported
 * to the listener and tried again at the next interval; nothing else stops.
 */
public final class Scraper implements AutoCloseable {
    /** Default time between scrapes: Prometheus' own default scrape_interval (1 minute) is too slow to watch; 5 s. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    /** Default time an answer may take (Prometheus' scrape_timeout default is 10 s). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** What a scrape reports; called on the scraper's thread. */
    public interface Listener {
        /** A sample arrived; {@code rates} are between it and the one before (null for the first). */
        void sampled(CounterSample sample, Measured rates, int scrapes);

        /** A scrape failed; the scraper goes on at the next interval. */
        void failed(String message, int failures);
    }

    private final URI uri;
    private final Duration interval;
    private final Duration timeout;
    private final Fabric fabric;
    private final PortMap map;
    private final Listener listener;
    private final HttpClient client;
    private final ScheduledExecutorService thread;
    private final List<CounterSample> last = new ArrayList<>();
    private int scrapes;
    private int failures;

    public Scraper(URI uri, Duration interval, Duration timeout, Fabric fabric, PortMap map, Listener listener) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException(uri + ": a scrape URL is http:// or https://");
        }
        this.uri = uri;
        this.interval = interval;
        this.timeout = timeout;
        this.fabric = fabric;
        this.map = map;
        this.listener = listener;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "counters-scrape " + uri.getHost());
            t.setDaemon(true);
            return t;
        });
    }

    public URI uri() {
        return uri;
    }

    /** Starts scraping now and every interval after. */
    public void start() {
        thread.scheduleWithFixedDelay(this::scrapeOnceQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void scrapeOnceQuietly() {
        try {
            scrapeOnce();
        } catch (RuntimeException e) {
            listener.failed(uri + ": " + e, ++failures);
        }
    }

    /** One scrape on the calling thread (the scheduled loop calls it; tests too). True when a sample arrived. */
    public synchronized boolean scrapeOnce() {
        CounterSample s;
        try {
            s = fetch();
        } catch (HttpTimeoutException e) {
            listener.failed(uri + " did not answer within " + timeout.toMillis() / 1000.0 + " s", ++failures);
            return false;
        } catch (IOException e) {
            listener.failed(uri + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), ++failures);
            return false;
        } catch (InputException e) {
            listener.failed(e.getMessage(), ++failures);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        last.add(s);
        while (last.size() > 2) {
            last.remove(0);
        }
        scrapes++;
        Measured rates = last.size() < 2 ? null : Measured.of(fabric, map, List.copyOf(last), null, null);
        listener.sampled(s, rates, scrapes);
        return true;
    }

    private CounterSample fetch() throws IOException, InterruptedException, InputException {
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "text/plain;version=0.0.4").GET().build();
        HttpResponse<InputStream> resp = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
        Instant arrived = Instant.now();
        byte[] body;
        try (InputStream in = resp.body()) {
            body = in.readNBytes((int) CountersFile.MAX_BYTES + 1);
        }
        if (resp.statusCode() != 200) {
            throw new IOException("HTTP " + resp.statusCode() + " (a Prometheus endpoint answers 200 with text)");
        }
        if (body.length > CountersFile.MAX_BYTES) {
            throw new IOException("the answer is larger than " + CountersFile.MAX_BYTES / (1024 * 1024) + " MB");
        }
        String text = CountersFile.utf8(body, uri.toString());
        CounterSample s = PrometheusText.parse(text, uri.toString(), uri.getHost());
        return s.time() == null ? s.at(arrived) : s;
    }

    /** Stops scraping (a scrape under way is interrupted). */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
