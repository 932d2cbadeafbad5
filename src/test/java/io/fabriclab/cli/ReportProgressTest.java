package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Issue 35 item 18: report progress written to a file or pipe is plain lines, not carriage returns. */
class ReportProgressTest {

    @Test
    void progressIsALineOfItsOwnWithoutATerminalAndOverwritesOnOne() {
        assertEquals("[ 40%] charts" + System.lineSeparator(), ReportCommand.progressLine(false, 0.4, "charts"));
        assertEquals('\r', ReportCommand.progressLine(true, 0.4, "charts").charAt(0));
    }
}
