#include "render/scene/OrbitCamera.h"

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>

namespace bv::scene {

namespace {
constexpr double kMaxPitch = 89.0 * M_PI / 180.0;
} // namespace

void OrbitCamera::setViewport(int width, int height) {
    m_width = std::max(width, 1);
    m_height = std::max(height, 1);
}

void OrbitCamera::frame(const glm::dvec3& centre, double radius, const glm::dvec3& up,
                        const glm::dvec3& front, double yaw, double pitch) {
    m_centre = centre;
    m_radius = radius > 0.0 ? radius : 1.0;
    m_up = glm::normalize(up);
    // front made exactly perpendicular to up, so yaw circles stay level
    m_front = glm::normalize(front - m_up * glm::dot(front, m_up));
    m_framedDistance = framingDistance();
    m_resetYaw = yaw;
    m_resetPitch = std::clamp(pitch, -kMaxPitch, kMaxPitch);
    reset();
}

double OrbitCamera::framingDistance() const {
    // the ball touches the narrower of the two half-angles of the view
    const double halfHeight = glm::radians(m_fovDegrees) / 2.0;
    const double halfWidth =
        std::atan(std::tan(halfHeight) * static_cast<double>(m_width) / m_height);
    return m_radius / std::sin(std::min(halfHeight, halfWidth));
}

void OrbitCamera::reframe(const glm::dvec3& centre, double radius) {
    const double zoom = m_distance / m_framedDistance;
    m_centre = centre;
    m_radius = radius > 0.0 ? radius : 1.0;
    m_framedDistance = framingDistance();
    m_distance = m_framedDistance * zoom;
}

void OrbitCamera::reset() {
    m_yaw = m_resetYaw;
    m_pitch = m_resetPitch;
    m_distance = m_framedDistance;
}

void OrbitCamera::orbit(double deltaYaw, double deltaPitch) {
    m_yaw = std::remainder(m_yaw + deltaYaw, 2.0 * M_PI);
    m_pitch = std::clamp(m_pitch + deltaPitch, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::zoom(double factor) {
    if (!(factor > 0.0))
        return;
    m_distance = std::clamp(m_distance / factor, m_framedDistance / 50.0, m_framedDistance * 20.0);
}

glm::dvec3 OrbitCamera::eye() const {
    const glm::dvec3 side = glm::cross(m_up, m_front);
    const glm::dvec3 level = std::cos(m_yaw) * m_front + std::sin(m_yaw) * side;
    return m_centre + m_distance * (std::cos(m_pitch) * level + std::sin(m_pitch) * m_up);
}

glm::dmat4 OrbitCamera::viewMatrix() const {
    return glm::lookAtRH(eye(), m_centre, m_up);
}

double OrbitCamera::pixelsPerUnit() const {
    // the view's height spans 2 d tan(fov / 2) at distance d
    return m_height / (2.0 * m_distance * std::tan(glm::radians(m_fovDegrees) / 2.0));
}

glm::dmat4 OrbitCamera::projectionMatrix() const {
    // near and far bracket the framed ball from wherever the eye is
    const double nearPlane = std::max(m_distance - 2.0 * m_radius, m_distance * 0.01);
    const double farPlane = m_distance + 4.0 * m_radius;
    glm::dmat4 p = glm::perspectiveRH_ZO(
        glm::radians(m_fovDegrees), static_cast<double>(m_width) / m_height, nearPlane, farPlane);
    p[1][1] = -p[1][1]; // Vulkan's clip y points down the framebuffer
    return p;
}

glm::mat4 OrbitCamera::viewProjection() const {
    return glm::mat4(projectionMatrix() * viewMatrix());
}

std::optional<glm::dvec2> OrbitCamera::project(const glm::dvec3& point) const {
    const glm::dvec4 clip = projectionMatrix() * viewMatrix() * glm::dvec4(point, 1.0);
    if (!(clip.w > 0.0) || clip.z < 0.0 || clip.z > clip.w)
        return std::nullopt;
    const double x = clip.x / clip.w, y = clip.y / clip.w;
    return glm::dvec2((x + 1.0) * 0.5 * m_width, (y + 1.0) * 0.5 * m_height);
}

std::optional<std::size_t> OrbitCamera::pick(const std::vector<glm::dvec3>& points,
                                             const glm::dvec2& cursor, double radiusPixels) const {
    std::optional<std::size_t> best;
    double bestPixels = radiusPixels, bestDepth = 0.0;
    const glm::dvec3 from = eye();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::optional<glm::dvec2> at = project(points[i]);
        if (!at)
            continue;
        const double pixels = glm::length(*at - cursor);
        const double depth = glm::length(points[i] - from);
        // dots within half a pixel of each other overlap: the one in front wins
        const bool clearlyNearer = pixels < bestPixels - 0.5;
        const bool asNear = pixels < bestPixels + 0.5 && (!best || depth < bestDepth);
        if (pixels <= radiusPixels && (clearlyNearer || asNear)) {
            best = i;
            bestPixels = pixels;
            bestDepth = depth;
        }
    }
    return best;
}

} // namespace bv::scene
