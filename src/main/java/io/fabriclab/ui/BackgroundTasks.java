package io.fabriclab.ui;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import javafx.application.Platform;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;
import javafx.concurrent.WorkerStateEvent;

/**
 * The application's one background executor: every piece of long work the editor starts (analysis,
 * deadlock check, the impact of a failed link, exports, autosave, opening and importing files,
 * template previews, the design-review report) runs here as a JavaFX {@link Task}, never on the FX
 * thread. Work reads a copy of the fabric ({@link io.fabriclab.model.Fabric#copy()}) taken on the
 * FX thread; its result is applied on the FX thread when it succeeds.
 *
 * <p>Two worker threads (daemon, just below normal priority): the machines FabricLab runs on have
 * at least two cores, and a second worker keeps an autosave from waiting behind a long analysis.
 * While work runs, {@link #titleProperty()} names it and {@link #progressProperty()} carries its
 * progress (-1 for "busy, amount unknown", 0 when idle), which the editor's status bar shows
 * (ControlsFX {@code StatusBar} shows its progress bar whenever progress is not 0).
 */
public final class BackgroundTasks {
    private static final BackgroundTasks SHARED = new BackgroundTasks(2);

    private final ExecutorService pool;
    /** The tasks submitted and not finished; read and changed on the FX thread only. */
    private final ObservableList<Task<?>> running = FXCollections.observableArrayList();
    /** What the caller called a task that sets no title of its own (FX thread only). */
    private final java.util.Map<Task<?>, String> names = new java.util.IdentityHashMap<>();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    /** Called on the worker thread before each task's work (tests see where work runs). */
    private volatile Consumer<Thread> probe;
    /**
     * Test hook: called on the worker thread once a task's work is done and before its result is
     * handed to the FX thread; a test holds the work "in flight" by blocking in it.
     */
    private volatile Consumer<Thread> gate;

    BackgroundTasks(int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor p = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "fabriclab-background-" + n.incrementAndGet());
                    t.setDaemon(true);
                    t.setPriority(Thread.NORM_PRIORITY - 1);
                    return t;
                });
        p.allowCoreThreadTimeOut(true);
        this.pool = p;
    }

    /** The application's executor. */
    public static BackgroundTasks shared() {
        return SHARED;
    }

    /**
     * Runs {@code work} off the FX thread; {@code onDone} gets its value on the FX thread,
     * {@code onFailed} its exception. The future completes (with the value, or exceptionally) after
     * the handler ran, so callers and tests can wait for what the user sees.
     */
    public <T> CompletableFuture<T> run(String what, Callable<T> work, Consumer<? super T> onDone,
                                        Consumer<Throwable> onFailed) {
        Task<T> t = new Job<>() {
            @Override
            protected T work() throws Exception {
                updateTitle(what);
                updateProgress(-1, 1);
                return work.call();
            }
        };
        // Named from the start: the status bar says what waits even before its work begins.
        return submit(t, what, onDone, onFailed);
    }

    /**
     * A task for this executor: its {@link #work()} runs on a worker thread, then the executor's
     * gate (a test hook, see {@code setGate}) may hold it before the result goes to the FX thread.
     * Work that other classes build (reports, exports) extends this rather than {@link Task}.
     */
    public abstract static class Job<T> extends Task<T> {
        private volatile BackgroundTasks executor;

        /** The work, on a worker thread; it may report progress and a message like any Task. */
        protected abstract T work() throws Exception;

        @Override
        protected final T call() throws Exception {
            T value = work();
            BackgroundTasks x = executor;
            if (x != null) {
                x.hold();
            }
            return value;
        }
    }

    private void hold() {
        Consumer<Thread> g = gate;
        if (g != null) {
            g.accept(Thread.currentThread());
        }
    }

    /**
     * Runs a task built elsewhere (one that reports its own progress and message); handlers as for
     * {@link #run}. A handler already set on the task is replaced.
     */
    public <T> CompletableFuture<T> submit(Task<T> t, Consumer<? super T> onDone, Consumer<Throwable> onFailed) {
        return submit(t, null, onDone, onFailed);
    }

    private <T> CompletableFuture<T> submit(Task<T> t, String what, Consumer<? super T> onDone,
                                            Consumer<Throwable> onFailed) {
        CompletableFuture<T> result = new CompletableFuture<>();
        t.setOnSucceeded(e -> {
            try {
                onDone.accept(t.getValue());
                result.complete(t.getValue());
            } catch (RuntimeException ex) {
                result.completeExceptionally(ex);
                throw ex;
            }
        });
        t.setOnFailed(e -> {
            try {
                onFailed.accept(t.getException());
            } finally {
                result.completeExceptionally(t.getException());
            }
        });
        t.setOnCancelled(e -> result.cancel(false));
        execute(t, what);
        return result;
    }

    /**
     * Runs a task whose handlers ({@code setOnSucceeded}, ...) the caller set itself; it shows in
     * the status bar until it ends.
     */
    public void execute(Task<?> t, String what) {
        t.addEventHandler(WorkerStateEvent.WORKER_STATE_SUCCEEDED, e -> finished(t));
        t.addEventHandler(WorkerStateEvent.WORKER_STATE_FAILED, e -> finished(t));
        t.addEventHandler(WorkerStateEvent.WORKER_STATE_CANCELLED, e -> finished(t));
        onFx(() -> {
            running.add(t);
            if (what != null) {
                names.put(t, what);
            }
            t.titleProperty().addListener((o, a, b) -> refresh());
            t.progressProperty().addListener((o, a, b) -> refresh());
            refresh();
        });
        if (t instanceof Job<?> j) {
            j.executor = this;
        }
        pool.execute(() -> {
            Consumer<Thread> p = probe;
            if (p != null) {
                p.accept(Thread.currentThread());
            }
            if (!(t instanceof Job<?>)) {
                hold(); // a plain Task cannot be held after its work: it is held before
            }
            t.run();
        });
    }

    private void finished(Task<?> t) {
        running.remove(t);
        names.remove(t);
        refresh();
    }

    private void refresh() {
        if (running.isEmpty()) {
            title.set("");
            progress.set(0);
            return;
        }
        Task<?> first = running.get(0);
        String name = first.getTitle() == null || first.getTitle().isEmpty() ? names.getOrDefault(first, "")
                : first.getTitle();
        title.set(name + (running.size() > 1 ? " (+" + (running.size() - 1) + " more)" : ""));
        double p = first.getProgress();
        // Progress 0 hides the status bar's bar: a task that has not reported yet is "busy".
        progress.set(running.size() > 1 || p <= 0 ? -1 : p);
    }

    private static void onFx(Runnable r) {
        if (Platform.isFxApplicationThread()) {
            r.run();
        } else {
            Platform.runLater(r);
        }
    }

    /** The tasks running or waiting now (FX thread only). */
    public ObservableList<Task<?>> running() {
        return FXCollections.unmodifiableObservableList(running);
    }

    /** What runs now ("Analyzing …", "+1 more"), empty when idle. */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** The progress of the work running now: -1 busy, 0 idle, else the first task's fraction done. */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** Sets what is told, on each worker thread, before a task's work starts (null for nothing). */
    void setProbe(Consumer<Thread> p) {
        probe = p;
    }

    /**
     * Test hook: {@code g} is called on the worker thread after each task's work is done (before a
     * plain {@link Task} that is not a {@link Job} starts) and before its result reaches the FX
     * thread; blocking in it holds the task in flight. Null for none.
     */
    void setGate(Consumer<Thread> g) {
        gate = g;
    }
}
