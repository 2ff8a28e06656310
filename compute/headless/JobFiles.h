#pragma once
// The job and session files as the batch uses them. Their readers and writers live in
// compute/request (Job.h, SessionFile.h), below every front end, so that the viewer reads its
// sessions and writes its jobs without including headless; the batch names them as its own.

#include "compute/request/Job.h"
#include "compute/request/SessionFile.h"

namespace bv::headless {

using request::Job;
using request::JobFrame;
using request::parseJob;
using request::readJob;
using request::sessionBase;

} // namespace bv::headless
