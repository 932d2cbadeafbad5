package io.fabriclab.sim;

import java.util.Arrays;

/** A RoCEv2 NIC port: its active queue pairs, served round robin subject to each QP's pacing. */
final class Nic {
    final int address;
    Flow[] active = new Flow[4];
    int activeCount;
    int roundRobin;
    long cnpsSent;
    long cnpsReceived;

    Nic(int address) {
        this.address = address;
    }

    void activate(Flow f) {
        if (activeCount == active.length) {
            active = Arrays.copyOf(active, activeCount * 2);
        }
        f.activeSlot = activeCount;
        active[activeCount++] = f;
    }

    void deactivate(Flow f) {
        int i = f.activeSlot;
        if (i < 0) {
            return;
        }
        Flow last = active[--activeCount];
        active[i] = last;
        last.activeSlot = i;
        active[activeCount] = null;
        f.activeSlot = -1;
        if (roundRobin >= activeCount) {
            roundRobin = 0;
        }
    }
}
