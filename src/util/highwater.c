#include "highwater.h"

uint64_t highwater_advance(uint64_t *mark, uint64_t reading, uint64_t slack)
{
	uint64_t last = *mark;

	if (reading >= last) {
		*mark = reading;
		return reading - last;
	}
	if (last - reading > slack) {
		*mark = reading;
		return HIGHWATER_RESTARTED;
	}
	return 0;	/* held: the reading is short of one already counted */
}
