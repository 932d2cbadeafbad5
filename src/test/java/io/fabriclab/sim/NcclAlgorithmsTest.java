package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Gpus;
import io.fabriclab.workload.NcclCollective;
import io.fabriclab.workload.NcclCollective.Algorithm;
import io.fabriclab.workload.NcclCollective.Op;

/**
 * NCCL's algorithms on small GPU clusters against their alpha-beta formulas. Network terms are
 * T1(b): the time one b-byte flow takes alone between two servers on one rail of the same fabric
 * (measured by the simulator: packetization, headers, switch latency and cables included); NVLink
 * terms are exact: 470 ns + bytes / 0.45 B/ps (H100, a transfer alone on its GPUs).
 */
class NcclAlgorithmsTest {
    private static final ScaleUp H100 = ScaleUp.DEFAULT;

    private static long end(SimResults r) {
        return r.lastFinishPs();
    }

    private static SimResults run(Fabric f, List<FlowSpec> tasks) {
        return new Simulator(f, tasks, SimConfig.defaults()).run();
    }

    /** One flow of {@code bytes} alone from s0's NIC k to s1's NIC k. */
    private static long t1(Fabric f, long bytes) {
        return end(run(f, List.of(new FlowSpec("s0:nic0", "s1:nic0", bytes, 0, 3))));
    }

    private static long nvlink(long bytes) {
        return 470_000 + (long) Math.ceil(bytes / H100.bytesPerPs());
    }

    @Test
    void hierarchicalAllReduceIsTwoNvlinkPhasesAndARingPerRail() {
        // N = 4 servers x g = 2 GPUs at 100G, S = 8 MiB: S/g = 4 MiB per GPU, cut into 4 pieces of
        // 1 MiB (at least 1 MiB each, at most 8) that follow one another through the phases. Piece p:
        // reduce-scatter in each server (1 step: each GPU sends its 1 MiB to the other over NVLink),
        // then per rail 2 rings (channels) over the 4 servers of 512 KiB each: 2(N-1) = 6 steps of
        // 512 KiB / 4 = 128 KiB per channel, both channels sharing the NIC: T1(256 KiB) a step; then
        // the all-gather in each server. The network phase is the slowest, and a rail's ring takes
        // the pieces one after another, so the first piece's reduce-scatter, 4 x 6 network steps and
        // the last piece's all-gather: T = 2 x nvlink(1 MiB) + 24 x T1(256 KiB).
        Fabric f = TestFabrics.railStar(4, 2, 100, 1.0, null, H100, false);
        long s = 8L << 20;
        NcclCollective c = new NcclCollective(Op.ALL_REDUCE, "h", Gpus.all(f), s, Algorithm.HIERARCHICAL, 2, 3);
        long expected = 2 * nvlink(1L << 20) + 24 * t1(f, 256L << 10);
        long got = end(run(f, c.flows(f)));
        System.out.printf("hierarchical: expected %.2f us, got %.2f us%n", expected / 1e6, got / 1e6);
        assertEquals(expected, got, expected * 0.02, "hierarchical " + got + " vs " + expected);
    }

    @Test
    void aFlatRingCrossesServersOnOneRailPerChannel() {
        // N = 2 servers x g = 2 GPUs, S = 4 MiB, 2 channels per rail = 4 rings: ring c enters each
        // server on rail c mod 2. n = 4 ranks, 2(n-1) = 6 steps of S/4 channels/4 ranks = 256 KiB.
        // Every step has, per ring, two NVLink hops and two network hops (each on the ring's rail);
        // per NIC two rings' hops share it (rings c and c + 2), so a step takes T1(512 KiB); each
        // GPU's NVLink carries one hop of each of 4 rings, well within the network's time.
        // T = 6 x T1(512 KiB).
        Fabric f = TestFabrics.railStar(2, 2, 100, 1.0, null, H100, false);
        NcclCollective c = new NcclCollective(Op.ALL_REDUCE, "r", Gpus.all(f), 4L << 20, Algorithm.RING, 2, 3);
        List<FlowSpec> tasks = c.flows(f);
        for (FlowSpec t : tasks) {
            if (t.network()) {
                // The rail of the sending NIC is the receiving NIC's: nicK -> nicK.
                assertEquals(t.src().substring(t.src().indexOf(':')), t.dst().substring(t.dst().indexOf(':')), t.toString());
            }
        }
        long expected = 6 * t1(f, 512L << 10);
        long got = end(run(f, tasks));
        System.out.printf("ring: expected %.2f us, got %.2f us%n", expected / 1e6, got / 1e6);
        assertEquals(expected, got, expected * 0.03, "ring " + got + " vs " + expected);
    }

    @Test
    void aDoubleBinaryTreeOverTwoServersIsTwoHalfTransfersEachWay() {
        // N = 2 servers, one GPU each, S = 1 MiB: tree 0 (root s0) and tree 1 (root s1) each carry
        // S/2 = 512 KiB in one chunk: up, the leaf sends to its root (the two trees' up transfers go
        // opposite ways), then down, the root sends back. T = 2 x T1(512 KiB), plus the ACKs: with
        // both trees at once each link carries one tree's data and the other's ACKs (86 B per 4 KiB
        // packet, up to 2.1 %), which a flow alone (T1) never meets; within 3 %.
        Fabric f = TestFabrics.railStar(2, 1, 100, 1.0, null, H100, false);
        NcclCollective c = new NcclCollective(Op.ALL_REDUCE, "t", Gpus.all(f), 1L << 20, Algorithm.TREE, 2, 3);
        assertEquals(Algorithm.TREE, c.plan(f).algorithm());
        long expected = 2 * t1(f, 512L << 10);
        long got = end(run(f, c.flows(f)));
        System.out.printf("tree: expected %.2f us, got %.2f us%n", expected / 1e6, got / 1e6);
        assertTrue(got >= expected && got <= expected * 1.03, "tree " + got + " vs " + expected);
    }

    @Test
    void pxnKeepsAllToAllOnTheRailsAndDirectCrossesThem() {
        // N = 2 servers x g = 2 GPUs with a spine, S = 4 MiB: each GPU sends S/4 = 1 MiB to each of
        // the 3 others. PXN: s0:gpu0's data for s1:gpu1 goes over NVLink to s0:gpu1 (1 MiB, beside the
        // 1 MiB of the all-to-all's own NVLink part on the same GPU: 2 MiB through gpu0's NVLink at
        // 0.45 B/ps), then s0:gpu1 sends the server's 2 MiB for s1:gpu1 in one flow on rail 1. Each
        // NIC sends one 2 MiB flow and receives one: T = nvlink(2 MiB) + T1(2 MiB).
        Fabric f = TestFabrics.railStar(2, 2, 100, 1.0, null, H100, true);
        NcclCollective pxn = new NcclCollective(Op.ALL_TO_ALL, "p", Gpus.all(f), 4L << 20, Algorithm.AUTO, 1, 3);
        assertEquals(Algorithm.PXN, pxn.plan(f).algorithm());
        SimResults rp = run(f, pxn.flows(f));
        for (SimResults.FlowResult fr : rp.flows()) {
            assertFalse(fr.path().stream().anyMatch(p -> p.startsWith("spine")), "PXN stays on its rail: " + fr.path());
        }
        long expected = nvlink(2L << 20) + t1(f, 2L << 20);
        System.out.printf("pxn: expected %.2f us, got %.2f us%n", expected / 1e6, end(rp) / 1e6);
        assertEquals(expected, end(rp), expected * 0.02, "pxn " + end(rp) + " vs " + expected);
        // Direct: each NIC sends two 1 MiB flows (one to each GPU of the other server), one of them
        // through the spine to the other rail; a NIC still carries 2 MiB, so the bound is T1(2 MiB),
        // and the detours through the spine only add.
        NcclCollective direct = new NcclCollective(Op.ALL_TO_ALL, "d", Gpus.all(f), 4L << 20, Algorithm.DIRECT, 1, 3);
        SimResults rd = run(f, direct.flows(f));
        assertTrue(rd.flows().stream().anyMatch(fr -> fr.path().stream().anyMatch(p -> p.startsWith("spine"))));
        System.out.printf("direct: bound %.2f us, got %.2f us%n", t1(f, 2L << 20) / 1e6, end(rd) / 1e6);
        assertTrue(end(rd) >= t1(f, 2L << 20), "direct " + end(rd));
    }
}
