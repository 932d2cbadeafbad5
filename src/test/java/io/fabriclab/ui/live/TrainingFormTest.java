package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.sim.TestFabrics;
import io.fabriclab.ui.live.TrainingForm.Field;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.TrainingJob;

/**
 * What the Training Step dialog checks and derives ({@link TrainingForm}), without widgets: the
 * Megatron defaults on the fabric, each impossible parallelism on the field it concerns with the
 * engine's message, every field that is not a number at once, a custom model, the summary and the
 * task counts.
 */
class TrainingFormTest {
    /** Two servers of four H100s, one NIC per GPU on four rails: 8 GPUs. */
    private static final Fabric FABRIC = TestFabrics.railStar(2, 4, 400, 1.0, null, ScaleUp.DEFAULT, false);

    /** A form of gpt-1.3b with Megatron's defaults on the 8 GPUs. */
    private static TrainingForm form() {
        TrainingForm form = new TrainingForm(FABRIC, null);
        form.choosePreset("gpt-1.3b");
        return form;
    }

    @Test
    void aPresetWithMegatronDefaultsRunsOnEveryGpu() {
        assertEquals("gpt2-124m", new TrainingForm(FABRIC, null).preset(), "the smallest model first");
        assertEquals(List.of("gpt2-124m", "gpt-1.3b", "llama-7b", "gpt-13b", "moe-8x7b", "gpt-175b"),
                TrainingForm.presetNames());
        TrainingForm form = form();
        assertEquals("gpt-1.3b", form.preset());
        // Narayanan et al. table 1: TP 1 and PP 1 below 2 B parameters, DP the rest.
        assertEquals("1", form.get(Field.TP));
        assertEquals("1", form.get(Field.PP));
        assertEquals("8", form.get(Field.DP));
        assertEquals("1.3", form.get(Field.PARAMETERS));
        TrainingForm.Check c = form.check();
        assertTrue(c.ok(), c.problems().toString());
        String summary = form.summary(c.job());
        assertTrue(summary.contains("GPUs: 8 of the fabric's 8 (TP 1 x PP 1 x DP 8)"), summary);
        assertTrue(summary.contains("Micro-batches per step: 64 (global batch 512 / (micro batch 1 x DP 8))"), summary);
        // 52 % of the H100's 989 TFLOP/s.
        assertEquals(0.52 * 989, Double.parseDouble(form.get(Field.TFLOPS)), 1e-6);
        // The compute time it makes, rounded to 0.1 µs for the field that is not in use.
        assertEquals(Math.round(c.job().computePsPerMicroBatch() / 1e5) / 10.0,
                Double.parseDouble(form.get(Field.COMPUTE_US)), 1e-9);
        assertTrue(summary.contains("514 TFLOP/s"), summary);
        assertTrue(summary.contains("Gradients per GPU: 5.20 GB reduced across DP in 33 buckets of 160.0 MB"), summary);
    }

    @Test
    void aGpuCountThatIsNotTheFabricsIsShownOnDataParallel() {
        TrainingForm form = form();
        form.set(Field.TP, "2");
        TrainingForm.Check c = form.check();
        assertFalse(c.ok());
        assertNull(c.job());
        assertEquals(List.of(Field.DP), List.copyOf(c.problems().keySet()));
        assertTrue(c.problems().get(Field.DP).startsWith("tp x pp x dp = 2 x 1 x 8 = 16 GPUs, but the fabric has 8"),
                c.problems().toString());
        form.set(Field.DP, "4");
        assertTrue(form.check().ok());
    }

    @Test
    void tensorParallelLargerThanAServerIsShownOnTp() {
        TrainingForm form = form();
        form.set(Field.TP, "8");
        form.set(Field.DP, "1");
        TrainingForm.Check c = form.check();
        assertTrue(c.problems().get(Field.TP).startsWith("8 is larger than server s0 (4 GPUs)"), c.problems().toString());
    }

    @Test
    void pipelineStagesThatDoNotDivideTheLayersAreShownOnPp() {
        TrainingForm form = form();
        form.set(Field.PP, "5");
        TrainingForm.Check c = form.check();
        assertEquals("5 stages do not divide the model's 24 layers", c.problems().get(Field.PP));
    }

    @Test
    void expertParallelThatDoesNotDivideDataParallelIsShownOnEp() {
        TrainingForm form = form();
        form.choosePreset("moe-8x7b");
        assertTrue(form.moe());
        assertTrue(form.check().ok(), form.check().problems().toString());
        // 46.7 B parameters: TP 4, PP 2, DP 1 on 8 GPUs.
        assertEquals(List.of("4", "2", "1"), List.of(form.get(Field.TP), form.get(Field.PP), form.get(Field.DP)));
        form.set(Field.EP, "2");
        TrainingForm.Check c = form.check();
        assertTrue(c.problems().get(Field.EP).startsWith("2 does not divide dp 1"), c.problems().toString());
        assertTrue(form.applies(Field.EP, true));
        assertFalse(form.applies(Field.EP, false), "EP is for a mixture of experts only");
    }

    @Test
    void everyFieldThatIsNotANumberIsShownAtOnce() {
        TrainingForm form = form();
        form.set(Field.LAYERS, "many");
        form.set(Field.PARAMETERS, "-1");
        form.set(Field.TFLOPS, "");
        TrainingForm.Check c = form.check();
        assertEquals("'many' is not a whole number >= 0", c.problems().get(Field.LAYERS));
        assertEquals("'-1' is not a number >= 0", c.problems().get(Field.PARAMETERS));
        assertEquals("'' is not a number >= 0", c.problems().get(Field.TFLOPS));
        assertEquals(3, c.problems().size());
        // The compute time replaces the rate: the rate's field no longer counts.
        form.setUseComputeTime(true);
        form.set(Field.COMPUTE_US, "0");
        form.set(Field.LAYERS, "24");
        form.set(Field.PARAMETERS, "1.3");
        assertEquals("above 0 µs, got 0", form.check().problems().get(Field.COMPUTE_US));
        form.set(Field.COMPUTE_US, "250");
        TrainingForm.Check ok = form.check();
        assertTrue(ok.ok(), ok.problems().toString());
        assertEquals(250_000_000L, ok.job().computePsPerMicroBatch());
    }

    @Test
    void modelLimitsComeFromTheEngineOnTheirField() {
        TrainingForm form = form();
        form.set(Field.MICRO_BATCH, "0");
        assertEquals("1 to 512, got 0", form.check().problems().get(Field.MICRO_BATCH));
        form.set(Field.MICRO_BATCH, "1");
        form.set(Field.GLOBAL_BATCH, "500");
        assertEquals("500 is not a multiple of microBatch x dp = 8", form.check().problems().get(Field.GLOBAL_BATCH));
        form.set(Field.GLOBAL_BATCH, "512");
        form.set(Field.BUCKET_MB, "-2");
        assertEquals("'-2' is not a number >= 0", form.check().problems().get(Field.BUCKET_MB));
        form.set(Field.BUCKET_MB, "2000000");
        assertTrue(form.check().problems().get(Field.BUCKET_MB).startsWith("0 to "), form.check().problems().toString());
        // 0: Megatron-LM's rule, max(40 M, 1 M x DP) parameters of 4 B.
        form.set(Field.BUCKET_MB, "0");
        TrainingForm.Check c = form.check();
        assertTrue(c.ok(), c.problems().toString());
        assertEquals(160_000_000L, c.job().effectiveBucketBytes());
        assertTrue(form.summary(c.job()).contains("in 33 buckets of 160.0 MB (Megatron-LM's rule), all-reduce"),
                form.summary(c.job()));
    }

    @Test
    void editingTheArchitectureMakesACustomModelAndMegatronDefaultsFollowIt() {
        TrainingForm form = form();
        form.set(Field.GLOBAL_BATCH, "256");
        assertEquals("gpt-1.3b", form.preset(), "the batch is a training setting, not the model");
        form.set(Field.PARAMETERS, "6");
        assertNull(form.preset());
        TrainingJob job = form.check().job();
        assertNotNull(job);
        assertEquals("custom-6b", job.name());
        assertEquals(6_000_000_000L, job.model().parameters());
        // 6 B parameters: TP 4 (below 7.5 B), PP 1, DP 2.
        assertTrue(form.megatronParallelism());
        assertEquals(List.of("4", "1", "2"), List.of(form.get(Field.TP), form.get(Field.PP), form.get(Field.DP)));
        assertTrue(form.check().ok());
    }

    @Test
    void aJobFillsTheFormBackUnchanged() {
        TrainingJob.Model m = new TrainingJob.Model("tiny", 10_000_000, 10_000_000, 0, 4, 256, 256, 8, 1, 0, 0);
        TrainingJob job = new TrainingJob("tiny", m, 4, 1, 2, 1, 0, 20, false, 5_000_000, true, 2);
        TrainingForm form = new TrainingForm(FABRIC, job);
        TrainingForm.Check c = form.check();
        assertTrue(c.ok(), c.problems().toString());
        TrainingJob back = c.job();
        assertEquals(job, back);
        assertEquals("0.01", form.get(Field.PARAMETERS));
        assertTrue(form.useComputeTime());
        form.set(Field.LAYERS, "8");
        assertEquals("custom-0.01b", form.check().job().name(), "another architecture is another model");
    }

    @Test
    void timesAndSizesReadInTheirUnit() {
        assertEquals("20.0 µs", TrainingForm.time(20_000_000));
        assertEquals("3.41 ms", TrainingForm.time(3_414_000_000L));
        assertEquals("25.78 s", TrainingForm.time(25_780_980_000_000L));
        assertEquals("999 B", TrainingForm.bytes(999));
        assertEquals("496.0 MB", TrainingForm.bytes(496_000_000));
        assertEquals("30.75 GB", TrainingForm.bytes(30_750_000_000L));
        assertEquals("215.38 TB", TrainingForm.bytes(215_384_020_000_000L));
    }

    @Test
    void theTaskCountIsWhatTheJobBuilds() {
        TrainingJob.Model m = new TrainingJob.Model("tiny", 10_000_000, 10_000_000, 0, 4, 256, 256, 8, 1, 0, 0);
        TrainingJob job = new TrainingJob("tiny", m, 4, 1, 2, 1, 0, 20, true, 5_000_000, false, 4);
        TrainingForm.Tasks t = TrainingForm.count(job, FABRIC);
        List<FlowSpec> tasks = job.build(FABRIC).tasks();
        assertEquals(tasks.size(), t.total());
        assertEquals(tasks.stream().filter(FlowSpec::network).count(), t.network());
        assertEquals(tasks.stream().filter(x -> x.kind() == FlowSpec.Kind.NVLINK).count(), t.nvlink());
        assertTrue(t.network() > 0 && t.nvlink() > 0 && t.compute() > 0, t.toString());
        assertTrue(TrainingForm.tasksText(t).startsWith("Tasks the step makes: " + String.format("%,d", t.total())));
    }
}
