package io.fabriclab.sim;

import java.util.Arrays;

/**
 * The flow engine's pending events, ordered by (time, insertion order): events at the same
 * picosecond come out in the order they were scheduled, as from a heap ordered by time and then by
 * a sequence number, so a run is deterministic.
 *
 * <p>The flow engine's events bunch at few instants: a training step of 1,024 GPUs runs 3.2
 * million events at 49,000 distinct instants, with up to 3,000 events pending. So each instant is
 * one bucket (a first-in first-out list of events), found by its time in an open-addressing table;
 * a binary heap orders the instants alone. Scheduling an event is a table probe and an append;
 * taking the next one is reading a list; the heap moves once per instant, not once per event. No
 * object is allocated per event: events and instants are records in arrays, recycled.
 */
final class InstantQueue {
    private static final int NONE = -1;

    // ---- events: records in parallel arrays, a free list through next ----
    private int[] evType = new int[1024];
    private int[] evTarget = new int[1024];
    private int[] evArg = new int[1024];
    private int[] evNext = new int[1024];
    private int freeEvent = NONE;
    private int eventsUsed;
    private int size;

    // ---- instants: time, first and last event; a free list through head ----
    private long[] time = new long[64];
    private int[] head = new int[64];
    private int[] tail = new int[64];
    private int freeInstant = NONE;
    private int instantsUsed;

    // ---- the heap of instants by time (times are distinct) ----
    private int[] heap = new int[64];
    private int heapSize;

    // ---- time -> instant: linear probing, power-of-two capacity, deletion by backward shift ----
    private long[] keys = new long[128];
    private int[] slots = new int[128];
    private int mask = 127;
    private int tableSize;

    /** The instant an event was last scheduled at (NONE when it is done): most events join the one before. */
    private int lastInstant = NONE;
    private long lastTime;

    /** The type, target and argument of the event {@link #pop} took last. */
    int topType;
    int topTarget;
    int topArg;

    InstantQueue() {
        Arrays.fill(slots, NONE);
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Pending events. */
    int size() {
        return size;
    }

    /** The time of the next event; only when not {@link #isEmpty}. */
    long peekTime() {
        return time[heap[0]];
    }

    void push(long t, int type, int target) {
        push(t, type, target, 0);
    }

    void push(long t, int type, int target, int arg) {
        int e = newEvent();
        evType[e] = type;
        evTarget[e] = target;
        evArg[e] = arg;
        evNext[e] = NONE;
        size++;
        if (lastInstant != NONE && lastTime == t) {
            evNext[tail[lastInstant]] = e;
            tail[lastInstant] = e;
            return;
        }
        int at = find(t);
        int in = slots[at];
        if (in != NONE) {
            evNext[tail[in]] = e;
            tail[in] = e;
            lastInstant = in;
            lastTime = t;
            return;
        }
        in = newInstant();
        time[in] = t;
        head[in] = e;
        tail[in] = e;
        keys[at] = t;
        slots[at] = in;
        if (++tableSize * 2 > mask + 1) {
            grow();
        }
        heapPush(in);
        lastInstant = in;
        lastTime = t;
    }

    /** The first event of the next instant (its time {@link #peekTime}); only when not {@link #isEmpty}. */
    int firstAtTop() {
        return head[heap[0]];
    }

    /** The event after {@code e} at its instant, or -1. */
    int next(int e) {
        return evNext[e];
    }

    int type(int e) {
        return evType[e];
    }

    int target(int e) {
        return evTarget[e];
    }

    /** Takes the next event: its fields into {@link #topType}, {@link #topTarget}, {@link #topArg}. */
    void pop() {
        int in = heap[0];
        int e = head[in];
        topType = evType[e];
        topTarget = evTarget[e];
        topArg = evArg[e];
        size--;
        int next = evNext[e];
        evNext[e] = freeEvent;
        freeEvent = e;
        if (next != NONE) {
            head[in] = next;
            return;
        }
        // The instant is done: out of the heap and the table.
        heapPop();
        remove(time[in]);
        if (lastInstant == in) {
            lastInstant = NONE;
        }
        head[in] = freeInstant;
        freeInstant = in;
    }

    private int newEvent() {
        int e = freeEvent;
        if (e != NONE) {
            freeEvent = evNext[e];
            return e;
        }
        if (eventsUsed == evType.length) {
            int c = eventsUsed * 2;
            evType = Arrays.copyOf(evType, c);
            evTarget = Arrays.copyOf(evTarget, c);
            evArg = Arrays.copyOf(evArg, c);
            evNext = Arrays.copyOf(evNext, c);
        }
        return eventsUsed++;
    }

    private int newInstant() {
        int in = freeInstant;
        if (in != NONE) {
            freeInstant = head[in];
            return in;
        }
        if (instantsUsed == time.length) {
            int c = instantsUsed * 2;
            time = Arrays.copyOf(time, c);
            head = Arrays.copyOf(head, c);
            tail = Arrays.copyOf(tail, c);
        }
        return instantsUsed++;
    }

    // ---- the table ----

    /** MurmurHash3's 64-bit finalizer: keys a fixed step apart (times, NIC pairs) spread over a table. */
    static int hash(long t) {
        long h = t;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }

    /** The table position of time {@code t}: its own, or the empty one where it would go. */
    private int find(long t) {
        int i = hash(t) & mask;
        while (slots[i] != NONE && keys[i] != t) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void remove(long t) {
        int i = find(t);
        slots[i] = NONE;
        tableSize--;
        // Backward shift: move up every later entry of the run that probed past i.
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (slots[j] == NONE) {
                return;
            }
            int home = hash(keys[j]) & mask;
            // Entry j may move to i when its home is not in (i, j] cyclically.
            boolean between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!between) {
                keys[i] = keys[j];
                slots[i] = slots[j];
                slots[j] = NONE;
                i = j;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldSlots = slots;
        int c = oldKeys.length * 2;
        keys = new long[c];
        slots = new int[c];
        Arrays.fill(slots, NONE);
        mask = c - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldSlots[i] != NONE) {
                int at = find(oldKeys[i]);
                keys[at] = oldKeys[i];
                slots[at] = oldSlots[i];
            }
        }
    }

    // ---- the heap ----

    private void heapPush(int in) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
        }
        long t = time[in];
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (time[heap[parent]] < t) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = in;
    }

    private void heapPop() {
        int last = heap[--heapSize];
        if (heapSize == 0) {
            return;
        }
        long t = time[last];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= heapSize) {
                break;
            }
            if (c + 1 < heapSize && time[heap[c + 1]] < time[heap[c]]) {
                c++;
            }
            if (t < time[heap[c]]) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = last;
    }
}
