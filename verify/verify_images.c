/* verify_images.c - a position's 8 geometric images from scratch
 * (verify_images.h). */
#include "verify_images.h"

void vr_images_of(const VrSym *t, const uint8_t *cells, VrImages *im)
{
    for (int g = 0; g < VR_GEOMETRIES; g++) im->img[g] = (VrKey){0, 0};
    for (int i = 0; i < t->n * t->n; i++)
        if (cells[i] != VR_EMPTY) vr_images_toggle(t, im, i, cells[i]);
}
