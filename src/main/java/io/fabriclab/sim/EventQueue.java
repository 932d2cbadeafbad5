package io.fabriclab.sim;

import java.util.Arrays;

/**
 * The pending events of a run, ordered by (time, insertion sequence) so that events at the same
 * picosecond run in the order they were scheduled and a run is deterministic.
 *
 * <p>A calendar of 2^15 buckets of 2.048 ns (a horizon of 67 us) holds the near future as unsorted
 * lists with a bitmap of the buckets that hold events; the bucket being consumed is a sorted array
 * (see {@link #active}); events beyond the horizon wait in an overflow heap and join when their
 * bucket comes up. The buckets are narrow because a large fabric runs several events per
 * nanosecond: the active bucket holds a few dozen events (about 9 at a 9000 B MTU, 36 at 1500 B in
 * the k=16 benchmark).
 *
 * <p>Cache behaviour is what matters at millions of events per second: an event is one record of
 * four longs (time, sequence, type and target, argument), and the active array and the overflow
 * heap hold their entries inline (the heap with the sequence, the active array without), so a
 * comparison or a move touches one cache line instead of one per field. No object is allocated per
 * event; records are recycled.
 */
final class EventQueue {
    private static final int SHIFT = 11;
    private static final int BUCKETS = 1 << 15;
    private static final int MASK = BUCKETS - 1;
    private static final int WORDS = BUCKETS >>> 6;

    /**
     * Calendar records, four longs each: time, seq, type << 32 | target, arg. (The active array
     * orders them without the sequence, see {@link #active}; a record keeps it, one store into a
     * line being written anyway, so that it is a whole event.)
     */
    private long[] rec;
    /**
     * The next record in the same bucket, per record. Kept apart from the records (a small array
     * that stays in cache) so that walking a bucket does not chase pointers through cold records:
     * the records' own loads are independent and the CPU overlaps their cache misses.
     */
    private int[] recNext;
    private int[] freeRecs;
    private int freeCount;
    private int recsUsed;
    private long nextSeq;

    private final int[] bucketHead = new int[BUCKETS];
    /** Bit i set when bucket i holds events. */
    private final long[] bucketBits = new long[WORDS];
    private int wheelCount;
    /** Bucket number (time >> SHIFT) whose events are in the active array. */
    private long current;
    /**
     * The events of the current bucket in the order they run: entries of three longs (time,
     * type << 32 | target, arg), the next to run at {@link #activeHead}, the last before
     * {@link #activeEnd}. A bucket's events are sorted once when it is taken up
     * ({@link #sortInto}) and then consumed front to back. This replaced a binary heap: a heap's
     * removal costs a few unpredictable branches per level and event, which showed as 15-25 % of
     * the run at a 1500 B MTU.
     *
     * <p>The sort needs no sequence numbers: a bucket's events are gathered in seq order and
     * sorted stably by time. Its overflow events come first: they leave their heap in order and
     * were all scheduled before any calendar event of that bucket (an event goes to the overflow
     * only while its bucket is a horizon or more ahead, and the current bucket never moves back);
     * then its calendar events from the first scheduled to the last (the list runs the other way,
     * hence {@link #loading}). An event scheduled into the current bucket (rare: a zero-delay
     * reaction) has the newest sequence and goes behind every entry at its time or earlier
     * ({@link #activeInsert}). So entries come out in (time, seq) order, a total order, exactly
     * as from the heap.
     */
    private long[] active = new long[64 * 3];
    /** Scratch: a bucket's events, gathered in seq order before {@link #sortInto} sorts them. */
    private long[] staging = new long[64 * 3];
    /** Parts of a bucket (of 128 ps) that {@link #sortInto} orders by first. */
    private static final int SUBS = 16;
    private final int[] subCounts = new int[SUBS + 1];
    private int activeHead;
    private int activeEnd;
    /** The records of the bucket being taken up, in list order (the reverse of scheduling). */
    private int[] loading = new int[64];
    private long[] overflow = new long[64 * 4];
    private int overflowSize;
    private int size;

    /** The event last removed by {@link #pop()}. */
    long topTime;
    int topType;
    int topTarget;
    int topArg;

    /** Reads ahead the state an event will use (see {@link #touchNextBucket}). */
    interface Lookahead {
        /** Reads what event (type, target, arg) will need; returns anything derived from it. */
        int touch(int type, int target, int arg);
    }

    private Lookahead lookahead;
    /** Sum of what the lookahead read, kept so that the reads are not optimized away. */
    int touched;

    void setLookahead(Lookahead l) {
        this.lookahead = l;
    }

    EventQueue(int initialCapacity) {
        int c = Math.max(16, initialCapacity);
        rec = new long[c * 4];
        recNext = new int[c];
        freeRecs = new int[c];
        Arrays.fill(bucketHead, -1);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    long peekTime() {
        if (activeHead == activeEnd) {
            advance();
        }
        return active[activeHead * 3];
    }

    void push(long t, int eventType, int eventTarget, int eventArg) {
        long seq = nextSeq++;
        long tt = (long) eventType << 32 | (eventTarget & 0xFFFFFFFFL);
        size++;
        long b = t >> SHIFT;
        if (b <= current) {
            activeInsert(t, tt, eventArg);
        } else if (b < current + BUCKETS) {
            int r;
            if (freeCount > 0) {
                r = freeRecs[--freeCount];
            } else {
                if (recsUsed * 4 == rec.length) {
                    rec = Arrays.copyOf(rec, rec.length * 2);
                    recNext = Arrays.copyOf(recNext, recNext.length * 2);
                }
                r = recsUsed++;
            }
            int i = (int) (b & MASK);
            int o = r << 2;
            rec[o] = t;
            rec[o + 1] = seq;
            rec[o + 2] = tt;
            rec[o + 3] = eventArg;
            recNext[r] = bucketHead[i];
            bucketHead[i] = r;
            bucketBits[i >>> 6] |= 1L << i;
            wheelCount++;
        } else {
            overflow = heapPush(overflow, overflowSize++, t, seq, tt, eventArg);
        }
    }

    /** Removes the earliest event into the top* fields. */
    void pop() {
        if (activeHead == activeEnd) {
            advance();
        }
        long[] h = active;
        int o = activeHead++ * 3;
        topTime = h[o];
        long tt = h[o + 1];
        topType = (int) (tt >>> 32);
        topTarget = (int) tt;
        topArg = (int) h[o + 2];
        size--;
    }

    /** Whether an event is pending at time {@code t}, the time of the event last popped (one comparison). */
    boolean hasPendingAt(long t) {
        return activeHead < activeEnd && active[activeHead * 3] == t;
    }

    /**
     * The pending events at the time of the event last popped are the front of the active
     * entries (every event of the current bucket is there, and an event scheduled at the current
     * time joins them), in the order they will run: positions {@link #firstPending()} on while
     * {@link #timeAt} is that time. A position stays the same event until the bucket changes or
     * the entries are moved ({@link #layout} changes then).
     */
    int firstPending() {
        return activeHead;
    }

    /** The end of the active entries (exclusive), see {@link #firstPending}. */
    int endPending() {
        return activeEnd;
    }

    /** Time of the active entry at {@code pos}. */
    long timeAt(int pos) {
        return active[pos * 3];
    }

    /** Type of the active entry at {@code pos} ({@link #NOP} once cancelled). */
    int typeAt(int pos) {
        return (int) (active[pos * 3 + 1] >>> 32);
    }

    int targetAt(int pos) {
        return (int) active[pos * 3 + 1];
    }

    int argAt(int pos) {
        return (int) active[pos * 3 + 2];
    }

    /** The type a cancelled entry takes: it still runs, as nothing ({@link #cancelAt}). */
    static final int NOP = 0x7FFF;

    /**
     * Cancels the pending entry at {@code pos} (the caller has run it): it keeps its place and runs
     * as a {@link #NOP}, so positions and the count of events stay as they were.
     */
    void cancelAt(int pos) {
        int o = pos * 3 + 1;
        active[o] = (long) NOP << 32 | (active[o] & 0xFFFFFFFFL);
    }

    /** Changes whenever active entries move (a new bucket, or the array compacted): positions from before are void. */
    int layout() {
        return layout;
    }

    private int layout;

    /** Moves to the next bucket that holds events (calendar or overflow) and makes it active. */
    private void advance() {
        long wheelBucket = Long.MAX_VALUE;
        if (wheelCount > 0) {
            wheelBucket = current + 1 + distanceToNextBucket((int) ((current + 1) & MASK));
        }
        long overflowBucket = overflowSize > 0 ? overflow[0] >> SHIFT : Long.MAX_VALUE;
        long b = Math.min(wheelBucket, overflowBucket);
        current = b;
        // Gather the bucket's events in (time, seq) order within each time, that is in seq order
        // (see active): the overflow's first, in their order, then the calendar's.
        long[] st = staging;
        int n = 0;
        while (overflowSize > 0 && overflow[0] >> SHIFT == b) {
            long[] o = overflow;
            if (n * 3 == st.length) {
                st = staging = Arrays.copyOf(st, st.length * 2);
            }
            st[n * 3] = o[0];
            st[n * 3 + 1] = o[2];
            st[n * 3 + 2] = o[3];
            n++;
            heapRemoveTop(o, --overflowSize);
        }
        if (b == wheelBucket) {
            int i = (int) (b & MASK);
            int m = 0;
            int[] ld = loading;
            int[] next = recNext;
            for (int r = bucketHead[i]; r >= 0; r = next[r]) {
                if (m == ld.length) {
                    ld = loading = Arrays.copyOf(ld, m * 2);
                }
                ld[m++] = r;
            }
            bucketHead[i] = -1;
            bucketBits[i >>> 6] &= ~(1L << i);
            wheelCount -= m;
            if (freeCount + m > freeRecs.length) {
                freeRecs = Arrays.copyOf(freeRecs, Math.max(freeRecs.length * 2, freeCount + m));
            }
            if ((n + m) * 3 > st.length) {
                st = staging = Arrays.copyOf(st, Math.max(st.length * 2, (n + m) * 3));
            }
            long[] re = rec;
            // The list runs from the last scheduled to the first: take it from its end.
            while (m > 0) {
                int r = ld[--m];
                int o = r << 2;
                int s = n * 3;
                st[s] = re[o];
                st[s + 1] = re[o + 2];
                st[s + 2] = re[o + 3];
                n++;
                freeRecs[freeCount++] = r;
            }
        }
        sortInto(st, n);
        if (b == wheelBucket && lookahead != null && wheelCount > 0) {
            touchNextBucket((int) ((b + 1) & MASK));
        }
    }

    /**
     * Makes the {@code n} gathered entries of {@code st} (in seq order) the active entries, sorted
     * by time and, within a time, by seq: a stable counting sort by which sixteenth of the bucket
     * a time falls in, then a stable insertion sort by time, which moves an entry only among the
     * few of its sixteenth (an insertion sort of the whole bucket moved a quarter of it per entry).
     */
    private void sortInto(long[] st, int n) {
        long[] h = active;
        if (n * 3 > h.length) {
            h = active = new long[Math.max(h.length * 2, n * 3)];
        }
        int[] cnt = subCounts;
        Arrays.fill(cnt, 0);
        for (int k = 0; k < n; k++) {
            cnt[sub(st[k * 3]) + 1]++;
        }
        for (int k = 1; k <= SUBS; k++) {
            cnt[k] += cnt[k - 1];
        }
        for (int k = 0; k < n; k++) {
            int s = k * 3;
            int o = cnt[sub(st[s])]++ * 3;
            h[o] = st[s];
            h[o + 1] = st[s + 1];
            h[o + 2] = st[s + 2];
        }
        for (int k = 1; k < n; k++) {
            int o = k * 3;
            long t = h[o];
            if (h[o - 3] <= t) {
                continue;
            }
            long tt = h[o + 1];
            long arg = h[o + 2];
            do {
                h[o] = h[o - 3];
                h[o + 1] = h[o - 2];
                h[o + 2] = h[o - 1];
                o -= 3;
            } while (o > 0 && h[o - 3] > t);
            h[o] = t;
            h[o + 1] = tt;
            h[o + 2] = arg;
        }
        activeHead = 0;
        activeEnd = n;
        layout++;
    }

    /** Which sixteenth of its bucket time {@code t} falls in. */
    private static int sub(long t) {
        return (int) (t >> (SHIFT - 4)) & (SUBS - 1);
    }

    /**
     * Inserts an event into the active entries, behind every entry at the same time or earlier
     * (its sequence is the newest: see {@link #active}).
     */
    private void activeInsert(long t, long tt, long arg) {
        long[] h = active;
        int end = activeEnd;
        if (end * 3 == h.length) {
            if (activeHead > 0) {
                System.arraycopy(h, activeHead * 3, h, 0, (end - activeHead) * 3);
                end -= activeHead;
                activeHead = 0;
                layout++;
            } else {
                h = active = Arrays.copyOf(h, h.length * 2);
            }
        }
        int o = end * 3;
        int head = activeHead * 3;
        while (o > head && h[o - 3] > t) {
            h[o] = h[o - 3];
            h[o + 1] = h[o - 2];
            h[o + 2] = h[o - 1];
            o -= 3;
        }
        h[o] = t;
        h[o + 1] = tt;
        h[o + 2] = arg;
        activeEnd = end + 1;
    }

    /**
     * Reads the records of the next bucket that holds events and lets {@link #lookahead} read the
     * state they will touch, so that the cache misses of a whole bucket overlap (the CPU runs
     * these independent loads in parallel) instead of stalling one event at a time later. Only
     * reads: what it fetches affects speed, never the order or the outcome of events.
     */
    private void touchNextBucket(int from) {
        int i = (from + distanceToNextBucket(from)) & MASK;
        long[] re = rec;
        int[] next = recNext;
        Lookahead la = lookahead;
        int sum = 0;
        for (int r = bucketHead[i]; r >= 0; r = next[r]) {
            int o = r << 2;
            long tt = re[o + 2];
            // The time too: a record may straddle two cache lines, and advance reads all of it.
            sum += (int) re[o] + la.touch((int) (tt >>> 32), (int) tt, (int) re[o + 3]);
        }
        touched += sum;
    }

    /** Buckets from {@code from} (inclusive, cyclic) to the first one that holds events; some bucket must. */
    private int distanceToNextBucket(int from) {
        int w = from >>> 6;
        long bits = bucketBits[w] & (-1L << from);
        int d = -(from & 63);
        while (bits == 0) {
            w = (w + 1) & (WORDS - 1);
            d += 64;
            bits = bucketBits[w];
        }
        return d + Long.numberOfTrailingZeros(bits);
    }

    private static boolean less(long ta, long sa, long tb, long sb) {
        return ta < tb || (ta == tb && sa < sb);
    }

    /** Adds an entry to heap {@code h} of {@code n} entries; returns the (possibly grown) array. */
    private static long[] heapPush(long[] h, int n, long t, long seq, long tt, int arg) {
        if ((n << 2) == h.length) {
            h = Arrays.copyOf(h, h.length * 2);
        }
        int i = n;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = parent << 2;
            if (less(t, seq, h[p], h[p + 1])) {
                int o = i << 2;
                h[o] = h[p];
                h[o + 1] = h[p + 1];
                h[o + 2] = h[p + 2];
                h[o + 3] = h[p + 3];
                i = parent;
            } else {
                break;
            }
        }
        int o = i << 2;
        h[o] = t;
        h[o + 1] = seq;
        h[o + 2] = tt;
        h[o + 3] = arg;
        return h;
    }

    /** Removes the top of heap {@code h}, whose new size is {@code n}. */
    private static void heapRemoveTop(long[] h, int n) {
        if (n == 0) {
            return;
        }
        int last = n << 2;
        long t = h[last];
        long seq = h[last + 1];
        long tt = h[last + 2];
        long arg = h[last + 3];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            int co = c << 2;
            if (c + 1 < n && less(h[co + 4], h[co + 5], h[co], h[co + 1])) {
                c++;
                co += 4;
            }
            if (less(h[co], h[co + 1], t, seq)) {
                int o = i << 2;
                h[o] = h[co];
                h[o + 1] = h[co + 1];
                h[o + 2] = h[co + 2];
                h[o + 3] = h[co + 3];
                i = c;
            } else {
                break;
            }
        }
        int o = i << 2;
        h[o] = t;
        h[o + 1] = seq;
        h[o + 2] = tt;
        h[o + 3] = arg;
    }
}
