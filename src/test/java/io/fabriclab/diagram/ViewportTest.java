package io.fabriclab.diagram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ViewportTest {

    @Test
    void zoomingKeepsTheWorldPointUnderTheCursor() {
        Viewport vp = new Viewport();
        vp.set(0.5, 30, -20);
        // Cursor at (400, 300): world x = (400 - 30) / 0.5 = 740, world y = (300 + 20) / 0.5 = 640.
        assertEquals(740, vp.toWorldX(400), 1e-9);
        assertEquals(640, vp.toWorldY(300), 1e-9);
        vp.zoomAt(400, 300, 1.25);
        assertEquals(0.625, vp.scale(), 1e-12);
        assertEquals(740, vp.toWorldX(400), 1e-9);
        assertEquals(640, vp.toWorldY(300), 1e-9);
    }

    @Test
    void zoomStopsAtTheLimitsAndStillKeepsTheCursorPoint() {
        Viewport vp = new Viewport();
        double wx = vp.toWorldX(100);
        vp.zoomAt(100, 100, 1e6);
        assertEquals(Viewport.MAX_SCALE, vp.scale());
        assertEquals(wx, vp.toWorldX(100), 1e-9);
    }

    @Test
    void fitShowsTheWholeWorldBoxCentred() {
        Viewport vp = new Viewport();
        Bounds world = new Bounds(-100, 0, 1900, 500);
        vp.fit(world, 1000, 600, 20);
        // Width limits: (1000 - 40) / 2000 = 0.48; height would allow (600 - 40) / 500 = 1.12.
        assertEquals(0.48, vp.scale(), 1e-12);
        Bounds seen = vp.visibleWorld(1000, 600);
        assertTrue(seen.containsAll(world));
        assertEquals(world.centreX(), seen.centreX(), 1e-9);
        assertEquals(world.centreY(), seen.centreY(), 1e-9);
    }
}
