package io.fabriclab.sim;

import java.util.List;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Permutation;

/**
 * Speed benchmark for comparing builds (not a unit test; the shipped benchmark is
 * {@code fabriclab bench sim}, on the shipped scenario file): the htsim reference scenario on the
 * test fabric generator, a k=16 fat-tree (1024 hosts)
 * permutation, 2 MB per host, 100G everywhere, 1 us per hop (200 m of fibre), PFC + ECN + DCQCN on.
 * Run: java -cp target/classes:target/test-classes:$(cat cp.txt) io.fabriclab.sim.SimBenchmark [mtu] [k] [repeats]
 * [ack] [transport: rocev2 or infiniband]
 */
public final class SimBenchmark {
    public static void main(String[] args) {
        int mtu = args.length > 0 ? Integer.parseInt(args[0]) : 9000;
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int ack = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        io.fabriclab.model.Transport transport = args.length > 4
                ? io.fabriclab.model.Transport.fromJsonName(args[4]).orElseThrow() : io.fabriclab.model.Transport.ROCEV2;
        for (int i = 0; i < repeats; i++) {
            Fabric f = TestFabrics.fatTree(k, 100, 200.0, QosProfile.roceLossless("lossless", 100));
            f.setMtuBytes(mtu);
            List<FlowSpec> flows = new Permutation(List.of(), 2_000_000, 0, 3, 42).flows(f);
            long t0 = System.nanoTime();
            Simulator sim = new Simulator(f, flows, SimConfig.defaults().withAckEveryPackets(ack), QosResolver.of(f),
                    transport);
            long t1 = System.nanoTime();
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long c1 = mx.getCurrentThreadCpuTime();
            SimResults r = sim.run();
            long c2 = mx.getCurrentThreadCpuTime();
            long t2 = System.nanoTime();
            // The machine is shared: CPU time of this thread is the fair figure; wall time is shown too.
            System.out.printf("  cpu %.3f s, %.2f M events/s of CPU time, load average %.1f%n", (c2 - c1) / 1e9,
                    r.run().events() * 1e3 / (c2 - c1),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf("%s k=%d hosts=%d mtu=%d ack/%d: build %.2f s, run %.3f s wall, %d events, %.2f M events/s, "
                            + "simulated %.1f us, %s, %d/%d flows, FCT p50 %.1f us p99 %.1f us, drops %d, pauses %d, "
                            + "marks %d, CNPs %d, max in flight %d%n",
                    transport.jsonName(), k, flows.size(), mtu, ack, (t1 - t0) / 1e9, (t2 - t1) / 1e9, r.run().events(),
                    r.run().eventsPerSecond() / 1e6, r.run().simulatedPs() / 1e6, r.run().stopReason(),
                    r.run().flowsCompleted(), r.run().flows(), r.summary().fctP50Us(), r.summary().fctP99Us(),
                    r.summary().drops(), r.summary().pauseFramesSent(), r.summary().ecnMarked(),
                    r.summary().cnpsSent(), r.run().maxPacketsInFlight());
        }
    }
}
