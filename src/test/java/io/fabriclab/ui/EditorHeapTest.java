package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import org.junit.jupiter.api.Test;

class EditorHeapTest {

    @Test
    void theSoftHeapSizeIsTwoGigabytesOrTheMaximumHeapWhenThatIsSmaller() {
        // 2 GiB = 2 x 1024^3 = 2,147,483,648 B.
        assertEquals(2_147_483_648L, EditorHeap.SOFT_MAX_BYTES);
        // A 24 GB machine's default maximum heap (a quarter: 6 GB): the 2 GB soft size.
        assertEquals(2_147_483_648L, EditorHeap.softMaxFor(6L << 30));
        // A 4 GB laptop (1 GB maximum) or -Xmx1g: never above the maximum, which would be refused.
        assertEquals(1L << 30, EditorHeap.softMaxFor(1L << 30));
        assertEquals(2_147_483_648L, EditorHeap.softMaxFor(2L << 30));
    }

    @Test
    void aSoftHeapSizeTheUserGaveIsKept() {
        assertTrue(EditorHeap.ours(VMOption.Origin.DEFAULT));
        assertTrue(EditorHeap.ours(VMOption.Origin.ERGONOMIC));
        assertFalse(EditorHeap.ours(VMOption.Origin.VM_CREATION)); // -XX:SoftMaxHeapSize=... on the command line
        assertFalse(EditorHeap.ours(VMOption.Origin.ENVIRON_VAR)); // JAVA_TOOL_OPTIONS
        assertFalse(EditorHeap.ours(VMOption.Origin.MANAGEMENT)); // set at run time by a tool
    }

    @Test
    void onlyTheZCollectorIsGivenOne() {
        // The beans' names of each collector (JDK 25).
        assertTrue(EditorHeap.zgc(List.of("ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles", "ZGC Major Pauses")));
        assertFalse(EditorHeap.zgc(List.of("Copy", "MarkSweepCompact")));
        assertFalse(EditorHeap.zgc(List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation")));
        assertFalse(EditorHeap.zgc(List.of("Shenandoah Pauses", "Shenandoah Cycles")));
    }

    @Test
    void underAnotherCollectorNothingIsChanged() {
        // The test JVMs run the serial collector (pom.xml): apply() must leave the flag as it was.
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        VMOption before = hotspot.getVMOption("SoftMaxHeapSize");
        String said = EditorHeap.apply();
        assertTrue(said.startsWith("soft heap size not set: the collector is not ZGC"), said);
        VMOption after = hotspot.getVMOption("SoftMaxHeapSize");
        assertEquals(before.getValue(), after.getValue());
        assertEquals(before.getOrigin(), after.getOrigin());
    }
}
