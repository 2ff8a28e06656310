// A made-up file for tests/layering: the Vulkan layer reaching into the physics model.
#include "compute/core/Error.h"
#include "compute/model/Detector.h"
