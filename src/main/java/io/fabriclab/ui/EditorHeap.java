package io.fabriclab.ui;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

/**
 * The editor's soft heap size under the Z collector, which its launchers select
 * ({@code tools/jvm-opts.sh}, {@code installers/build.sh}; docs/performance.md, "Responsiveness
 * during long actions").
 *
 * <p>ZGC otherwise lets the heap grow towards its maximum (a quarter of the machine's memory)
 * before it collects, and memory touched for the first time is what costs: a copy of the 64-unit
 * fabric took 70-110 ms of CPU on fresh memory against 9-20 ms on memory the collector had
 * reused. A soft limit of 2 GB keeps the heap on memory already touched; 1 GB was too tight for
 * the live view (ZGC collected its heap back to back: 2-3 s of collector CPU per run of the
 * 4-unit all-reduce against 0.1-0.3 s at 2 GB). It is soft: a larger fabric grows the heap past
 * it. Set here rather than on the command line because {@code -XX:SoftMaxHeapSize} above the
 * maximum heap stops the JVM from starting (a machine with less than 8 GB, or a user's
 * {@code -Xmx1g}); {@code SoftMaxHeapSize} is a manageable flag, changed at run time.
 */
public final class EditorHeap {
    /** The editor's soft heap size when the maximum heap allows it. */
    public static final long SOFT_MAX_BYTES = 2L << 30;

    private EditorHeap() {
    }

    /** The soft heap size for a maximum heap: {@link #SOFT_MAX_BYTES}, or the maximum when smaller. */
    static long softMaxFor(long maxHeapBytes) {
        return Math.min(SOFT_MAX_BYTES, maxHeapBytes);
    }

    /** Whether the soft heap size is ours to set: the JVM chose it (the user did not name it). */
    static boolean ours(VMOption.Origin origin) {
        return origin == VMOption.Origin.DEFAULT || origin == VMOption.Origin.ERGONOMIC;
    }

    /** Whether the JVM runs the Z collector, by its collectors' names ("ZGC Minor Cycles", ...). */
    static boolean zgc(List<String> collectorNames) {
        return collectorNames.stream().anyMatch(n -> n.startsWith("ZGC"));
    }

    /**
     * Sets the soft heap size when the JVM runs ZGC and the user did not set it. Returns what was
     * done, for the log: the size set, or why nothing was.
     */
    public static String apply() {
        List<String> names = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList();
        if (!zgc(names)) {
            return "soft heap size not set: the collector is not ZGC " + names;
        }
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        VMOption option = hotspot.getVMOption("SoftMaxHeapSize");
        if (!ours(option.getOrigin())) {
            return "soft heap size " + option.getValue() + " B, as given (" + option.getOrigin() + ")";
        }
        long bytes = softMaxFor(Runtime.getRuntime().maxMemory());
        hotspot.setVMOption("SoftMaxHeapSize", Long.toString(bytes));
        return "soft heap size set to " + (bytes >> 20) + " MB";
    }
}
