/* verify_images.h - the verifier's position seen through all 8 geometries
 * at once, kept up to date move by move, so that its canonical key
 * (vr_canonical: the least of the 16 images' keys) costs 16 comparisons
 * instead of 8 x 2 x n table look-ups per position.
 *
 * Invariant: for a VrImages im kept for cells, im.img[g] is the key of the
 * image of cells under geometry g (vr_key of vr_image(n, g, cells)), for
 * g = 0..7; img[0] is the position's own key (geometry 0 is the identity).
 * vr_images_of makes it from scratch; vr_images_toggle keeps it when one
 * cell changes between empty and s (a piece placed or taken back: the
 * same exclusive-or). vr_images_canonical returns exactly what
 * vr_canonical returns for those cells, the same key and the same
 * symmetry on ties (the same order of comparison); the test suite checks
 * both along random games played forward and taken back.
 *
 * Like verify_rules.h, this uses nothing of the engine: the bit of cell i
 * under geometry g is VrSym.perm[g][i], filled from vr_geom_cell alone.
 */
#ifndef OCS_VERIFY_IMAGES_H
#define OCS_VERIFY_IMAGES_H

#include <stdint.h>

#include "verify_rules.h"

typedef struct {
    VrKey img[VR_GEOMETRIES];
} VrImages;

/* im for cells, from scratch. */
void vr_images_of(const VrSym *t, const uint8_t *cells, VrImages *im);

/* Cell `cell` changes between empty and s (VR_X or VR_O), either way. */
static inline void vr_images_toggle(const VrSym *t, VrImages *im, int cell, uint8_t s)
{
    for (int g = 0; g < VR_GEOMETRIES; g++) {
        uint64_t bit = 1ULL << t->perm[g][cell];
        if (s == VR_X)
            im->img[g].x ^= bit;
        else
            im->img[g].o ^= bit;
    }
}

/* The least of the 16 keys, as vr_canonical: *sym_out (may be NULL) a
 * symmetry s (geometry s & 7, X and O swapped when s & 8) whose image has
 * that key. */
static inline VrKey vr_images_canonical(const VrImages *im, int *sym_out)
{
    VrKey best = im->img[0];
    int best_sym = 0;
    for (int g = 0; g < VR_GEOMETRIES; g++) {
        VrKey img = im->img[g], swapped = {img.o, img.x};
        if (vr_key_less(img, best)) best = img, best_sym = g;
        if (vr_key_less(swapped, best)) best = swapped, best_sym = g + 8;
    }
    if (sym_out) *sym_out = best_sym;
    return best;
}

/* The canonical key of the position with s placed on the empty cell
 * `cell`, im unchanged. */
static inline VrKey vr_images_canonical_after(const VrSym *t, const VrImages *im, int cell, uint8_t s, int *sym_out)
{
    VrImages child = *im;
    vr_images_toggle(t, &child, cell, s);
    return vr_images_canonical(&child, sym_out);
}

#endif
