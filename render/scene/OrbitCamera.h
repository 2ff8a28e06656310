#pragma once
// OrbitCamera: the reciprocal-space view's camera. It circles a centre point (yaw about the
// `up` axis, pitch towards it), zooms by moving closer, and resets to where frame() put it.
// Pure glm, no Vulkan and no Qt, so picking is tested by hand-worked numbers
// (tests/compute/tst_orbitcamera).
//
//   OrbitCamera camera;
//   camera.setViewport(800, 600);
//   camera.frame(centre, radius, up, front);   // front: where the eye is at yaw = pitch = 0
//   camera.orbit(glm::radians(10.0), 0.0);
//   gpu.record(commands, camera.viewProjection());
//   std::optional<std::size_t> hit = camera.pick(points, cursor, 8.0);
//
// Window pixels have their origin at the top-left corner, y down (Qt's and Vulkan's
// framebuffer convention); viewProjection() maps into Vulkan's clip space (y down, depth 0..1).

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace bv::scene {

class OrbitCamera {
  public:
    // Framebuffer size in pixels (at least 1 x 1).
    void setViewport(int width, int height);
    int width() const { return m_width; }
    int height() const { return m_height; }
    // Vertical field of view, degrees (default 40).
    void setFieldOfView(double degrees) { m_fovDegrees = degrees; }

    // Looks at `centre` from far enough that a ball of `radius` fills the view; `up` is the
    // axis yaw turns about, `front` (perpendicular to up) the eye's side at yaw = pitch = 0.
    // yaw/pitch (rad) are the starting angles reset() returns to.
    void frame(const glm::dvec3& centre, double radius, const glm::dvec3& up,
               const glm::dvec3& front, double yaw = 0.0, double pitch = 0.0);
    void reset();
    // Frames a new centre and radius (the scene changed, or the viewport did) keeping the
    // angles and the zoom relative to the framing; reset() then returns to the new framing.
    void reframe(const glm::dvec3& centre, double radius);
    double radius() const { return m_radius; }

    // Turns the eye about the centre (rad); pitch stays within +-89 degrees so `up` stays up.
    void orbit(double deltaYaw, double deltaPitch);
    // factor > 1 moves closer (distance / factor), within 1/50 .. 20 times the framed distance.
    void zoom(double factor);

    double yaw() const { return m_yaw; }
    double pitch() const { return m_pitch; }
    double distance() const { return m_distance; }
    const glm::dvec3& centre() const { return m_centre; }
    glm::dvec3 eye() const;

    // Window pixels per scene unit at the centre's depth (lengths across the line of sight
    // there): what a lattice spacing measures on screen.
    double pixelsPerUnit() const;

    glm::dmat4 viewMatrix() const;
    glm::dmat4 projectionMatrix() const; // Vulkan clip space: y flipped, depth 0..1
    glm::mat4 viewProjection() const;    // for the GPU

    // Window pixel of a point; nullopt when it is behind the eye or outside the depth range.
    std::optional<glm::dvec2> project(const glm::dvec3& point) const;
    // The point whose projection lies nearest `cursor` within `radiusPixels`; of points within
    // half a pixel of the nearest, the one nearer the eye. nullopt when none is that close.
    std::optional<std::size_t> pick(const std::vector<glm::dvec3>& points, const glm::dvec2& cursor,
                                    double radiusPixels) const;

  private:
    double framingDistance() const;

    int m_width = 1, m_height = 1;
    double m_fovDegrees = 40.0;
    glm::dvec3 m_centre{0.0};
    glm::dvec3 m_up{0.0, 0.0, 1.0};
    glm::dvec3 m_front{1.0, 0.0, 0.0};
    double m_radius = 1.0;
    double m_framedDistance = 3.0;
    double m_resetYaw = 0.0, m_resetPitch = 0.0;
    double m_yaw = 0.0, m_pitch = 0.0, m_distance = 3.0;
};

} // namespace bv::scene
