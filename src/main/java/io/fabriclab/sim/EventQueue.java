package io.fabriclab.sim;

import java.util.Arrays;

/**
 * The pending events of a run: a 4-ary min-heap over primitive arrays keyed by (time, insertion
 * sequence), so events at the same picosecond run in the order they were scheduled and a run is
 * deterministic. No object is allocated per event.
 */
final class EventQueue {
    private long[] time;
    private long[] seq;
    private int[] type;
    private int[] target;
    private int[] arg;
    private int size;
    private long nextSeq;

    /** The event last removed by {@link #pop()}. */
    long topTime;
    int topType;
    int topTarget;
    int topArg;

    EventQueue(int initialCapacity) {
        int c = Math.max(16, initialCapacity);
        time = new long[c];
        seq = new long[c];
        type = new int[c];
        target = new int[c];
        arg = new int[c];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    long peekTime() {
        return time[0];
    }

    void push(long t, int eventType, int eventTarget, int eventArg) {
        if (size == time.length) {
            grow();
        }
        long s = nextSeq++;
        int i = size++;
        // Sift the hole up, then drop the new event into it.
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (less(t, s, time[parent], seq[parent])) {
                move(parent, i);
                i = parent;
            } else {
                break;
            }
        }
        time[i] = t;
        seq[i] = s;
        type[i] = eventType;
        target[i] = eventTarget;
        arg[i] = eventArg;
    }

    /** Removes the earliest event into the top* fields. */
    void pop() {
        topTime = time[0];
        topType = type[0];
        topTarget = target[0];
        topArg = arg[0];
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = time[last];
        long s = seq[last];
        int ty = type[last];
        int ta = target[last];
        int ar = arg[last];
        int i = 0;
        while (true) {
            int first = (i << 2) + 1;
            if (first >= last) {
                break;
            }
            int best = first;
            int end = Math.min(first + 4, last);
            for (int c = first + 1; c < end; c++) {
                if (less(time[c], seq[c], time[best], seq[best])) {
                    best = c;
                }
            }
            if (less(time[best], seq[best], t, s)) {
                move(best, i);
                i = best;
            } else {
                break;
            }
        }
        time[i] = t;
        seq[i] = s;
        type[i] = ty;
        target[i] = ta;
        arg[i] = ar;
    }

    private static boolean less(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }

    private void move(int from, int to) {
        time[to] = time[from];
        seq[to] = seq[from];
        type[to] = type[from];
        target[to] = target[from];
        arg[to] = arg[from];
    }

    private void grow() {
        int c = time.length * 2;
        time = Arrays.copyOf(time, c);
        seq = Arrays.copyOf(seq, c);
        type = Arrays.copyOf(type, c);
        target = Arrays.copyOf(target, c);
        arg = Arrays.copyOf(arg, c);
    }
}
