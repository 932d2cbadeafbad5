package io.fabriclab.report;

import io.fabriclab.topology.Finding;

/**
 * A finding of the review: static (lint, deadlock check) or from a simulation run, with the
 * evidence that shows it and the change that resolves it.
 *
 * @param count how many subjects share this finding (findings of one kind are grouped)
 */
public record ReviewFinding(Finding.Severity severity, String code, String subject, String evidence,
                            String recommendation, String source, int count) {
}
