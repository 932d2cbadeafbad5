package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Gpus;
import io.fabriclab.workload.TrainingJob;

/**
 * What the training-job dialog ({@link TrainingJobDialog}) checks and derives, without widgets:
 * the form's fields as text, the job they make on a fabric ({@link TrainingJob}, whose own checks
 * and {@link TrainingJob#problem} decide), each problem put on the field it names, and the summary
 * shown as the user types. Sizes of parameters are in billions, the bucket in MB (10^6 B), as the
 * presets and PyTorch's {@code bucket_cap_mb} give them.
 */
public final class TrainingForm {

    /** The form's fields, by the path the scenario format and the engine's messages use. */
    public enum Field {
        PARAMETERS("model.parameters", "Parameters (billions)"),
        ACTIVE("model.activeParameters", "Active parameters per token (billions)"),
        EXPERT("model.expertParameters", "Expert parameters (billions)"),
        LAYERS("model.layers", "Layers"),
        HIDDEN("model.hidden", "Hidden size"),
        SEQUENCE("model.sequence", "Sequence length (tokens)"),
        GLOBAL_BATCH("model.globalBatch", "Global batch (sequences)"),
        MICRO_BATCH("model.microBatch", "Micro batch (sequences)"),
        EXPERTS("model.experts", "Experts (0: dense)"),
        TOP_K("model.topK", "Experts per token (top-k)"),
        TP("parallelism.tp", "Tensor parallel (TP)"),
        PP("parallelism.pp", "Pipeline stages (PP)"),
        DP("parallelism.dp", "Data parallel (DP)"),
        EP("parallelism.ep", "Expert parallel (EP)"),
        TFLOPS("gpu.achievedTflops", "Achieved TFLOP/s per GPU"),
        COMPUTE_US("gpu.computeUsPerMicroBatch", "Compute per micro-batch (µs)"),
        BUCKET_MB("schedule.bucketMB", "Gradient bucket (MB; 0: Megatron's)"),
        GRADIENT_BYTES("schedule.gradientBytes", "Gradient bytes per parameter");

        private final String path;
        private final String label;

        Field(String path, String label) {
            this.path = path;
            this.label = label;
        }

        /** The field's path ("parallelism.tp"), as the scenario format and the engine name it. */
        public String path() {
            return path;
        }

        public String label() {
            return label;
        }
    }

    /** The form's values as typed, plus its choices. */
    private final Map<Field, String> text = new LinkedHashMap<>();
    private String preset;
    /** The name of a job's own (not preset) model the form was filled from, until its architecture changes. */
    private String customName;
    private boolean useComputeTime;
    private boolean overlapGradients = true;
    private boolean distributedOptimizer;
    private final Fabric fabric;

    /** A form on {@code fabric} filled from {@code job}, or from the smallest preset with Megatron's defaults when null. */
    public TrainingForm(Fabric fabric, TrainingJob job) {
        this.fabric = fabric;
        if (job != null) {
            fill(job);
        } else {
            choosePreset(presetNames().get(0));
        }
    }

    /** The model presets, smallest first. */
    public static List<String> presetNames() {
        List<String> names = new ArrayList<>(TrainingJob.PRESETS.keySet());
        names.sort(Comparator.comparingLong((String n) -> TrainingJob.PRESETS.get(n).parameters()).thenComparing(n -> n));
        return names;
    }

    /** The GPUs a job can use: those of the fabric's connected servers. */
    public int fabricGpus() {
        return Gpus.all(fabric).size();
    }

    public Fabric fabric() {
        return fabric;
    }

    /**
     * Fills the form with preset {@code name} and the parallelism, achieved rate and schedule
     * {@link TrainingJob#on} gives it on this fabric (Megatron's defaults), the rate from FLOPs.
     */
    public void choosePreset(String name) {
        TrainingJob.Model m = TrainingJob.PRESETS.get(name);
        if (m == null) {
            throw new IllegalArgumentException("model: one of " + presetNames() + ", got " + name);
        }
        TrainingJob job = TrainingJob.on(fabric, m.name(), m, null, null, null, 1, 0, 0, true,
                TrainingJob.DEFAULT_BUCKET_BYTES, false, TrainingJob.DEFAULT_GRADIENT_BYTES);
        fill(job);
        preset = name;
    }

    /**
     * Sets TP, PP and DP to what {@link TrainingJob#on} chooses for the model as typed (TP and PP
     * by size, DP the rest), the global batch rounded up to a multiple of micro batch x DP. False
     * (nothing changed) when the model's fields do not make a model.
     */
    public boolean megatronParallelism() {
        TrainingJob.Model m;
        try {
            m = model();
        } catch (IllegalArgumentException e) {
            return false;
        }
        TrainingJob job = TrainingJob.on(fabric, m.name(), m, null, null, null, 1, 1, 0, true,
                TrainingJob.DEFAULT_BUCKET_BYTES, false, TrainingJob.DEFAULT_GRADIENT_BYTES);
        set(Field.TP, String.valueOf(job.tp()));
        set(Field.PP, String.valueOf(job.pp()));
        set(Field.DP, String.valueOf(job.dp()));
        set(Field.GLOBAL_BATCH, String.valueOf(job.model().globalBatch()));
        if (!m.moe()) {
            set(Field.EP, "1");
        }
        return true;
    }

    private void fill(TrainingJob job) {
        TrainingJob.Model m = job.model();
        put(Field.PARAMETERS, billions(m.parameters()));
        put(Field.ACTIVE, billions(m.activeParameters()));
        put(Field.EXPERT, billions(m.expertParameters()));
        put(Field.LAYERS, String.valueOf(m.layers()));
        put(Field.HIDDEN, String.valueOf(m.hidden()));
        put(Field.SEQUENCE, String.valueOf(m.sequence()));
        put(Field.GLOBAL_BATCH, String.valueOf(m.globalBatch()));
        put(Field.MICRO_BATCH, String.valueOf(m.microBatch()));
        put(Field.EXPERTS, String.valueOf(m.experts()));
        put(Field.TOP_K, String.valueOf(m.topK()));
        put(Field.TP, String.valueOf(job.tp()));
        put(Field.PP, String.valueOf(job.pp()));
        put(Field.DP, String.valueOf(job.dp()));
        put(Field.EP, String.valueOf(job.ep()));
        useComputeTime = job.computeUsPerMicroBatch() > 0;
        double tflops = job.achievedTflops() > 0 ? job.achievedTflops()
                : job.computePsPerMicroBatch() > 0 ? m.flopsPerToken() * m.microBatch() * m.sequence()
                / ((double) job.tp() * job.pp()) / (job.computePsPerMicroBatch() / 1e12) / 1e12 : 0;
        // A figure the job was given stays exact; one derived from the other is rounded to what a
        // user would type (TFLOP/s to 0.01, microseconds to 0.1).
        put(Field.TFLOPS, number(job.achievedTflops() > 0 && !useComputeTime ? job.achievedTflops()
                : Math.round(tflops * 100) / 100.0));
        put(Field.COMPUTE_US, number(useComputeTime ? job.computeUsPerMicroBatch()
                : Math.round(job.computePsPerMicroBatch() / 1e5) / 10.0));
        put(Field.BUCKET_MB, number(job.bucketBytes() / 1e6));
        put(Field.GRADIENT_BYTES, String.valueOf(job.gradientBytesPerParameter()));
        overlapGradients = job.overlapGradients();
        distributedOptimizer = job.distributedOptimizer();
        preset = TrainingJob.PRESETS.containsKey(m.name()) ? m.name() : null;
        customName = preset == null ? m.name() : null;
    }

    private void put(Field f, String v) {
        text.put(f, v);
    }

    /** "1.3" for 1.3e9; as many decimals as the count needs, up to nine. */
    static String billions(long n) {
        return number(n / 1e9);
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        String s = String.format(Locale.ROOT, "%.9f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    // ----- values ----------------------------------------------------------------------------

    public String get(Field f) {
        return text.getOrDefault(f, "");
    }

    /**
     * Sets a field's text. Changing the model's architecture (parameters, layers, hidden size,
     * experts) makes it a custom model; its batch and sequence are the run's, the name stays.
     */
    public void set(Field f, String value) {
        String v = value == null ? "" : value;
        if (!v.equals(text.get(f)) && ARCHITECTURE.contains(f)) {
            preset = null;
            customName = null;
        }
        text.put(f, v);
    }

    private static final java.util.Set<Field> ARCHITECTURE = java.util.EnumSet.of(Field.PARAMETERS, Field.ACTIVE,
            Field.EXPERT, Field.LAYERS, Field.HIDDEN, Field.EXPERTS, Field.TOP_K);

    /** The preset the model fields still hold, or null once one of them was changed (a custom model). */
    public String preset() {
        return preset;
    }

    public boolean useComputeTime() {
        return useComputeTime;
    }

    /** Compute time per micro-batch given directly (true) or from FLOPs at the achieved rate (false). */
    public void setUseComputeTime(boolean b) {
        useComputeTime = b;
    }

    public boolean overlapGradients() {
        return overlapGradients;
    }

    public void setOverlapGradients(boolean b) {
        overlapGradients = b;
    }

    public boolean distributedOptimizer() {
        return distributedOptimizer;
    }

    public void setDistributedOptimizer(boolean b) {
        distributedOptimizer = b;
    }

    /** True when the model fields give a mixture of experts (experts above 0): the expert fields apply. */
    public boolean moe() {
        try {
            return Long.parseLong(get(Field.EXPERTS).trim()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    // ----- checking --------------------------------------------------------------------------

    /** The outcome of a check: the job (null when it cannot run) and each problem on its field. */
    public record Check(TrainingJob job, Map<Field, String> problems) {
        public boolean ok() {
            return job != null && problems.isEmpty();
        }
    }

    /**
     * Checks the form: every field that is not a number (all of them at once), then the model,
     * the job and whether it fits the fabric, in that order, as the engine says (the first of
     * those problems, on the field its message names).
     */
    public Check check() {
        Map<Field, String> problems = new LinkedHashMap<>();
        parseAll(problems);
        if (!problems.isEmpty()) {
            return new Check(null, problems);
        }
        TrainingJob job;
        try {
            job = job();
        } catch (IllegalArgumentException e) {
            put(problems, e.getMessage());
            return new Check(null, problems);
        }
        String p = job.problem(fabric);
        if (p != null) {
            put(problems, p);
            return new Check(null, problems);
        }
        return new Check(job, problems);
    }

    private void parseAll(Map<Field, String> problems) {
        boolean moe = moe();
        for (Field f : Field.values()) {
            if (!applies(f, moe)) {
                continue;
            }
            String t = get(f).trim();
            try {
                if (decimal(f)) {
                    double v = Double.parseDouble(t);
                    if (!(v >= 0) || Double.isInfinite(v)) {
                        throw new NumberFormatException();
                    }
                } else {
                    long v = Long.parseLong(t);
                    if (v < 0) {
                        throw new NumberFormatException();
                    }
                }
            } catch (NumberFormatException e) {
                problems.put(f, "'" + t + "' is not " + (decimal(f) ? "a number" : "a whole number") + " >= 0");
            }
        }
    }

    /** Whether a field takes part: the expert fields only for a mixture of experts, one of the two GPU fields. */
    public boolean applies(Field f, boolean moe) {
        return switch (f) {
            case ACTIVE, EXPERT, TOP_K, EP -> moe;
            case TFLOPS -> !useComputeTime;
            case COMPUTE_US -> useComputeTime;
            default -> true;
        };
    }

    private static boolean decimal(Field f) {
        return f == Field.PARAMETERS || f == Field.ACTIVE || f == Field.EXPERT || f == Field.TFLOPS
                || f == Field.COMPUTE_US || f == Field.BUCKET_MB;
    }

    /** A problem message "field: text" put on the field it names (the GPU count on DP, the rest of the job). */
    private static void put(Map<Field, String> problems, String message) {
        int colon = message.indexOf(": ");
        String path = colon > 0 ? message.substring(0, colon) : "";
        String rest = colon > 0 ? message.substring(colon + 2) : message;
        problems.put(fieldFor(path), rest);
    }

    /** The form field an engine message's path names ("parallelism.tp", "layers", "bucketBytes"). */
    static Field fieldFor(String path) {
        String p = path.contains(".") ? path : switch (path) {
            case "bucketBytes" -> "schedule.bucketMB";
            case "gradientBytesPerParameter" -> "schedule.gradientBytes";
            // tp x pp x dp is not the fabric's GPU count: DP is the one that takes "the rest".
            case "parallelism" -> "parallelism.dp";
            default -> "model." + path;
        };
        for (Field f : Field.values()) {
            if (f.path().equals(p)) {
                return f;
            }
        }
        return Field.DP;
    }

    private long whole(Field f) {
        return Long.parseLong(get(f).trim());
    }

    private int integer(Field f) {
        long v = whole(f);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(f.path() + ": at most " + Integer.MAX_VALUE + ", got " + v);
        }
        return (int) v;
    }

    private double decimal(Field f, double scale) {
        return Double.parseDouble(get(f).trim()) * scale;
    }

    /** The model the fields give; IllegalArgumentException naming the field otherwise. */
    public TrainingJob.Model model() {
        Map<Field, String> problems = new LinkedHashMap<>();
        parseAll(problems);
        for (Map.Entry<Field, String> e : problems.entrySet()) {
            if (e.getKey().path().startsWith("model.")) {
                throw new IllegalArgumentException(e.getKey().path() + ": " + e.getValue());
            }
        }
        boolean moe = moe();
        long params = Math.round(decimal(Field.PARAMETERS, 1e9));
        long active = moe ? Math.round(decimal(Field.ACTIVE, 1e9)) : params;
        long expert = moe ? Math.round(decimal(Field.EXPERT, 1e9)) : 0;
        String name = preset != null ? preset : customName != null ? customName
                : "custom-" + get(Field.PARAMETERS).trim() + "b";
        return new TrainingJob.Model(name, params, active, expert, integer(Field.LAYERS), integer(Field.HIDDEN),
                integer(Field.SEQUENCE), integer(Field.GLOBAL_BATCH), integer(Field.MICRO_BATCH),
                integer(Field.EXPERTS), moe ? integer(Field.TOP_K) : 0);
    }

    /** The job the fields give (not yet checked against the fabric); IllegalArgumentException naming the field. */
    public TrainingJob job() {
        TrainingJob.Model m = model();
        boolean moe = m.moe();
        double tflops = useComputeTime ? 0 : decimal(Field.TFLOPS, 1);
        double us = useComputeTime ? decimal(Field.COMPUTE_US, 1) : 0;
        if (useComputeTime && !(us > 0)) {
            throw new IllegalArgumentException("gpu.computeUsPerMicroBatch: above 0 µs, got " + get(Field.COMPUTE_US).trim());
        }
        long bucket = Math.round(decimal(Field.BUCKET_MB, 1e6));
        return new TrainingJob(m.name(), m, integer(Field.TP), integer(Field.PP), integer(Field.DP),
                moe ? integer(Field.EP) : 1, tflops, us, overlapGradients, bucket, distributedOptimizer,
                integer(Field.GRADIENT_BYTES));
    }

    // ----- summary ---------------------------------------------------------------------------

    /** What the job makes, by kind of task (counted from {@link TrainingJob#build}). */
    public record Tasks(int network, int nvlink, int compute, long networkBytes, long nvlinkBytes, int collectives) {
        public int total() {
            return network + nvlink + compute;
        }
    }

    /** Builds the job's tasks on the fabric and counts them (seconds for the largest; call off the FX thread). */
    public static Tasks count(TrainingJob job, Fabric fabric) {
        TrainingJob.Built b = job.build(fabric);
        int net = 0;
        int nv = 0;
        int comp = 0;
        long netBytes = 0;
        long nvBytes = 0;
        for (FlowSpec t : b.tasks()) {
            switch (t.kind()) {
                case NETWORK -> {
                    net++;
                    netBytes += t.bytes();
                }
                case NVLINK -> {
                    nv++;
                    nvBytes += t.bytes();
                }
                case COMPUTE -> comp++;
            }
        }
        return new Tasks(net, nv, comp, netBytes, nvBytes, b.collectives().size());
    }

    /** The summary of a job that can run: GPUs, micro-batches, compute, gradients, tokens. */
    public String summary(TrainingJob job) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "GPUs: %,d of the fabric's %,d (TP %d x PP %d x DP %d%s)%n", job.gpus(),
                fabricGpus(), job.tp(), job.pp(), job.dp(), job.ep() > 1 ? ", EP " + job.ep() : ""));
        b.append(String.format(Locale.ROOT, "Micro-batches per step: %,d (global batch %,d / (micro batch %d x DP %d))%n",
                job.microBatches(), job.model().globalBatch(), job.model().microBatch(), job.dp()));
        b.append(String.format(Locale.ROOT, "Compute per micro-batch: %s on each GPU (%s), %s per step%n",
                time(job.computePsPerMicroBatch()), job.computeUsPerMicroBatch() > 0 ? "given"
                        : String.format(Locale.ROOT, "%,.0f TFLOP/s", job.achievedTflops()),
                time(job.computePsPerStep())));
        long grad = job.gradientBytesPerGpu();
        // As the job cuts them (TrainingJob: the bucket in force, 1 to 64 buckets).
        long bucket = job.effectiveBucketBytes();
        long buckets = job.dp() == 1 ? 0 : Math.max(1, Math.min(64, (grad + bucket - 1) / bucket));
        b.append(String.format(Locale.ROOT, "Gradients per GPU: %s reduced across DP%s%n", bytes(grad),
                job.dp() == 1 ? " (none: DP 1)" : String.format(Locale.ROOT, " in %d bucket%s of %s%s%s", buckets,
                        buckets == 1 ? "" : "s", bytes(bucket), job.bucketBytes() == 0 ? " (Megatron-LM's rule)" : "",
                        job.distributedOptimizer() ? ", reduce-scatter + all-gather" : ", all-reduce")));
        b.append(String.format(Locale.ROOT, "Tokens per step: %,d", job.tokensPerStep()));
        return b.toString();
    }

    /** The task counts as a line. */
    public static String tasksText(Tasks t) {
        return String.format(Locale.ROOT, "Tasks the step makes: %,d%n  %,d network flows (%s), %,d NVLink transfers (%s),"
                        + " %,d compute intervals; %,d collective%s", t.total(), t.network(), bytes(t.networkBytes()),
                t.nvlink(), bytes(t.nvlinkBytes()), t.compute(), t.collectives(), t.collectives() == 1 ? "" : "s");
    }

    static String time(long ps) {
        if (ps >= 1_000_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f s", ps / 1e12);
        }
        if (ps >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f ms", ps / 1e9);
        }
        return String.format(Locale.ROOT, "%.1f µs", ps / 1e6);
    }

    static String bytes(long b) {
        if (b >= 1_000_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f TB", b / 1e12);
        }
        if (b >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
        }
        if (b >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
        }
        return String.format(Locale.ROOT, "%,d B", b);
    }
}
